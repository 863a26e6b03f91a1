package walls

import (
	"testing"

	"github.com/aoekit/aoekit/core/los"
)

// fuzzClamp folds an arbitrary int64 into ±MaxCoord: values within stay as they are, so the
// fuzzer's small numbers keep their degenerate cases; larger ones wrap.
func fuzzClamp(v int64) int64 {
	if v < -MaxCoord || v > MaxCoord {
		v %= MaxCoord + 1
	}
	return v
}

// FuzzBlocks compares Wall.Blocks with the exact reference (SPEC §5.6) on arbitrary walls and
// segments within ±MaxCoord, both ways round. flags: bit 0 no bottom, bit 1 no top, bit 2
// sets the bottom and top to ⌊z⌋ and ⌈z⌉ of the height at X, bit 3 scales every coordinate
// by 200 (grid lines and centres).
func FuzzBlocks(f *testing.F) {
	f.Add(int64(400), int64(0), int64(400), int64(400), int64(200), int64(200), int64(200), int64(600), int64(200), int64(200), int64(0), int64(200), uint8(0))
	f.Add(int64(400), int64(0), int64(400), int64(400), int64(200), int64(600), int64(0), int64(600), int64(200), int64(0), int64(0), int64(0), uint8(3))
	f.Add(int64(123), int64(457), int64(-301), int64(999), int64(73), int64(408), int64(0), int64(173), int64(508), int64(0), int64(0), int64(0), uint8(3))
	f.Add(int64(-MaxCoord), int64(MaxCoord), int64(MaxCoord), int64(-MaxCoord), int64(-MaxCoord), int64(-MaxCoord), int64(-MaxCoord), int64(MaxCoord), int64(MaxCoord), int64(MaxCoord), int64(0), int64(0), uint8(4))
	f.Add(int64(2), int64(0), int64(2), int64(2), int64(2), int64(-1), int64(0), int64(2), int64(3), int64(0), int64(0), int64(0), uint8(11))
	f.Fuzz(func(t *testing.T, ax, ay, bx, by, px, py, pz, qx, qy, qz, bottom, top int64, flags uint8) {
		c := func(v int64) int64 {
			v = fuzzClamp(v)
			if flags&8 != 0 {
				v = fuzzClamp(v * 200)
			}
			return v
		}
		w := Wall{A: [2]int64{c(ax), c(ay)}, B: [2]int64{c(bx), c(by)}, Bottom: fuzzClamp(bottom), Top: fuzzClamp(top)}
		if w.A == w.B {
			t.Skip("a = b is an error (SPEC §5.6)")
		}
		if flags&1 != 0 {
			w.Bottom = NoBottom
		}
		if flags&2 != 0 {
			w.Top = NoTop
		}
		p, q := los.Point{X: c(px), Y: c(py), Z: c(pz)}, los.Point{X: c(qx), Y: c(qy), Z: c(qz)}
		check := func(w Wall) {
			t.Helper()
			res := refClassify(w, p, q)
			want := [4]bool{res.blocked, res.blocked, res.blocked, res.blocked}
			if got := blocksAll(w, p, q); got != want {
				t.Fatalf("%v, %v → %v (%v): Blocks (p→q, q→p, wall swapped ×2) = %v, reference %v", w, p, q, res.kind, got, res.blocked)
			}
		}
		check(w)
		if res := refClassify(w, p, q); flags&4 != 0 && res.kind == refCross {
			lo, hi := ratFloor(res.z), ratCeil(res.z)
			for _, h := range [][2]int64{{lo, hi}, {hi, lo}, {lo, lo}, {hi, hi}, {lo, NoTop}, {hi, NoTop}, {NoBottom, lo}, {NoBottom, hi}} {
				check(w.heights(h[0], h[1]))
			}
		}
	})
}

// fuzzBytes reads a fuzzer's bytes as numbers, zero once they run out.
type fuzzBytes []byte

func (b *fuzzBytes) u8() byte {
	if len(*b) == 0 {
		return 0
	}
	v := (*b)[0]
	*b = (*b)[1:]
	return v
}

func (b *fuzzBytes) i16() int64 { return int64(int16(uint16(b.u8()) | uint16(b.u8())<<8)) }

// fuzzScales spreads walls over a few cells, over grid lines, over tiles, or over the range.
var fuzzScales = [8]int64{1, 7, 100, 200, 400, 512, 1 << 12, 1 << 14}

// coord reads a coordinate: a 16-bit number times the scale, plus a small offset.
func (b *fuzzBytes) coord(scale int64) int64 {
	v := b.i16() * scale
	if o := b.u8(); o&1 != 0 {
		v += int64(int8(o)) >> 4
	}
	return clampC(v)
}

// FuzzIndex builds an Index of a few walls decoded from bytes and compares Blocked for a
// decoded segment with scanning every wall through the reference; it also checks that Near
// is true for the segment's box when a wall passes through it, and that Cost bounds the
// walls Blocked tests.
func FuzzIndex(f *testing.F) {
	f.Add([]byte{4, 2, 1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 1, 0, 0, 0, 0})
	f.Add([]byte{5, 3, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 2, 0, 0, 255, 255, 0, 1, 0, 0, 0})
	f.Add([]byte{7, 8, 255, 127, 0, 255, 127, 0, 1, 128, 0, 1, 128, 0})
	f.Add([]byte{3, 1, 2, 0, 0, 0, 0, 0, 2, 0, 0, 2, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 3, 0, 0, 1, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		b := fuzzBytes(data)
		head := b.u8()
		scale := fuzzScales[head&7]
		n := int(b.u8() % 9)
		ws := make([]Wall, 0, n)
		for range n {
			w := Wall{A: [2]int64{b.coord(scale), b.coord(scale)}, B: [2]int64{b.coord(scale), b.coord(scale)}, Bottom: NoBottom, Top: NoTop}
			if w.A == w.B {
				continue
			}
			if h := b.u8(); h&1 != 0 {
				w.Bottom = 200 * (int64(h>>1&7) - 2)
			}
			if h := b.u8(); h&1 != 0 {
				w.Top = 200 * (int64(h>>1&7) - 2)
			}
			if w.Bottom != NoBottom && w.Top != NoTop && w.Bottom > w.Top {
				w.Bottom, w.Top = w.Top, w.Bottom
			}
			ws = append(ws, w)
		}
		p := los.Point{X: b.coord(scale), Y: b.coord(scale), Z: 200 * (int64(b.u8()&7) - 2)}
		q := los.Point{X: b.coord(scale), Y: b.coord(scale), Z: 200 * (int64(b.u8()&7) - 2)}
		if head&8 != 0 {
			q.X, q.Y = p.X, p.Y
		}
		ix := New(ws)
		if ix.Len() != len(ws) {
			t.Fatalf("Len = %d, want %d", ix.Len(), len(ws))
		}
		want := scanBlocked(ws, p, q)
		if got := ix.Blocked(p, q); got != want {
			t.Fatalf("walls %v: Blocked(%v, %v) = %v, reference %v", ws, p, q, got, want)
		}
		if got := ix.Blocked(q, p); got != want {
			t.Fatalf("walls %v: Blocked(%v, %v) = %v, reference %v", ws, q, p, got, want)
		}
		lo := [2]int64{min(p.X, q.X), min(p.Y, q.Y)}
		hi := [2]int64{max(p.X, q.X), max(p.Y, q.Y)}
		if refNear(ws, lo, hi) && !ix.Near(lo, hi) {
			t.Fatalf("walls %v: Near(%v, %v) = false, but a wall passes through the box", ws, lo, hi)
		}
		if len(ws) == 0 {
			return
		}
		tests, ids, _ := visited(ix, p, q)
		if c := ix.Cost(q.X-p.X, q.Y-p.Y); c < tests {
			t.Fatalf("walls %v: Cost(%d, %d) = %d, but Blocked(%v, %v) may test %d walls", ws, q.X-p.X, q.Y-p.Y, c, p, q, tests)
		}
		for i, w := range ws {
			if segsMeet(xy(p), xy(q), w.A, w.B) && !ids[int32(i)] {
				t.Fatalf("walls %v: the tiles walked for %v → %v miss wall %d, which it meets", ws, p, q, i)
			}
		}
	})
}
