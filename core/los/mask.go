package los

// An octant mask has one bit per open octant around a point (SPEC §5.2). Octant i has sign
// + on X when i&1 != 0, on Y when i&2 != 0 and on Z when i&4 != 0. Two octants are adjacent
// (share a face) when their indices differ in exactly one bit.

// badMask[m] is true when a point whose covered octants are m blocks a segment through it
// (SPEC §5.2): all eight octants are covered (the point is inside the union of the solids,
// a shared face included), or the covered octants fall apart into two or more face-connected
// components (solids meet only diagonally at the point: an edge or a corner pinch).
// One face-connected component short of all eight is a graze and does not block.
var badMask = func() (t [256]bool) {
	for m := range t {
		t[m] = m == 0xff || components(uint8(m)) >= 2
	}
	return t
}()

// components counts the face-connected components of the octants in m.
func components(m uint8) int {
	n := 0
	var seen uint8
	for i := range 8 {
		if m&(1<<i) == 0 || seen&(1<<i) != 0 {
			continue
		}
		n++
		seen |= 1 << i
		stack := [8]int{i}
		sp := 1
		for sp > 0 {
			sp--
			j := stack[sp]
			for _, bit := range [3]int{1, 2, 4} {
				k := j ^ bit
				if m&(1<<k) != 0 && seen&(1<<k) == 0 {
					seen |= 1 << k
					stack[sp] = k
					sp++
				}
			}
		}
	}
	return n
}

// maskOf builds the octant mask from the fills of the eight cells the octants look into:
// a lower octant (sign − on Z) is covered when its cell's fill exceeds thrM, an upper one
// when it exceeds thrP. The thresholds encode where the point sits in its layer (see
// zThresholds).
func maskOf(fo *[8]int, thrM, thrP int64) uint8 {
	var m uint8
	for i := range 4 {
		if int64(fo[i]) > thrM {
			m |= 1 << i
		}
		if int64(fo[i+4]) > thrP {
			m |= 1 << (i + 4)
		}
	}
	return m
}
