package grid

// A Dir is one of the eight compass directions, indexed clockwise from north (SPEC §1.2).
// The zero value is N.
type Dir uint8

// The eight directions.
const (
	N Dir = iota
	NE
	E
	SE
	S
	SW
	W
	NW
)

// Dirs returns the eight directions in index order.
func Dirs() [8]Dir { return [8]Dir{N, NE, E, SE, S, SW, W, NW} }

var dirNames = [8]string{"N", "NE", "E", "SE", "S", "SW", "W", "NW"}
var dirOffsets = [8][2]int{{0, -1}, {1, -1}, {1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}}

// String returns the upper-case code of d ("N", "NE", …), or "" if d is not a direction.
func (d Dir) String() string {
	if d > NW {
		return ""
	}
	return dirNames[d]
}

// Valid reports whether d is one of the eight directions.
func (d Dir) Valid() bool { return d <= NW }

// Offset is the unit step (dx, dy, 0) toward d.
func (d Dir) Offset() Cell {
	o := dirOffsets[d&7]
	return Cell{o[0], o[1], 0}
}

// Diagonal reports whether d is NE, SE, SW or NW.
func (d Dir) Diagonal() bool { return d&1 == 1 }

// Turn returns d turned clockwise by k steps of 45°; k may be negative.
func (d Dir) Turn(k int) Dir { return Dir(((int(d)+k)%8 + 8) % 8) }

// Abs returns the absolute direction of a direction d given relative to an entity that
// faces f (SPEC §1.3: (facing + relative) mod 8).
func (d Dir) Abs(facing Dir) Dir { return d.Turn(int(facing)) }

// ParseDir reads an upper-case direction code exactly ("N" … "NW").
func ParseDir(s string) (Dir, bool) {
	for i, n := range dirNames {
		if n == s {
			return Dir(i), true
		}
	}
	return 0, false
}
