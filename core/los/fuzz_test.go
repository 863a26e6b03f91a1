package los

import (
	"math"
	"testing"

	"github.com/aoekit/aoekit/core/grid"
)

// fuzzFills maps a board byte to a fill: mostly empty, else one of the awkward heights.
var fuzzFills = [8]int{0, 0, 0, 400, 200, 120, 1, 399}

// fuzzCoord maps a fuzzed value to a lattice coordinate around a board of n cells: its two
// low bits pick a uniform value, a grid plane, a cell centre or an inset corner.
func fuzzCoord(v int16, n int64) int64 {
	u := int64(v) >> 2
	if u < 0 {
		u = -u
	}
	switch v & 3 {
	case 0:
		return u%((n+2)*Unit+1) - Unit
	case 1:
		return (u%(n+3) - 1) * Unit
	case 2:
		return (u%(n+2)-1)*Unit + Unit/2
	}
	return (u%(n+3)-1)*Unit + 2*(u&1) - 1
}

// FuzzBlocked compares Blocked with the reference on a fuzzed 4 × 4 × 2 board (SPEC §5.2),
// seen as a plain Solids and as board.Solids, and checks that no input, however large, makes it panic.
func FuzzBlocked(f *testing.F) {
	f.Add([]byte{3, 0, 0, 0, 0, 3}, int16(1), int16(9), int16(6), int16(9), int16(1), int16(6))
	f.Add([]byte{4, 4, 4, 4}, int16(0), int16(2), int16(802), int16(3000), int16(2), int16(802))
	f.Add([]byte{4, 0, 0, 0, 0, 3, 0, 0, 0, 0, 6}, int16(6), int16(1), int16(2), int16(14), int16(29), int16(2)) // flat
	f.Add([]byte{}, int16(-32768), int16(32767), int16(0), int16(5), int16(6), int16(7))
	f.Fuzz(func(t *testing.T, cells []byte, ax, ay, az, bx, by, bz int16) {
		b := newBoard(grid.C(0, 0, 0), 4, 4, 2)
		for i := range b.f {
			if i < len(cells) {
				b.f[i] = fuzzFills[cells[i]&7]
			}
		}
		p := Point{fuzzCoord(ax, 4), fuzzCoord(ay, 4), fuzzCoord(az, 2)}
		q := Point{fuzzCoord(bx, 4), fuzzCoord(by, 4), fuzzCoord(bz, 2)}
		got := Blocked(p, q, b)
		if want := refBlocked(p, q, refBoxes(b)); got != want {
			t.Fatalf("Blocked(%v, %v) = %v, reference %v\n%s", p, q, got, want, dump(b))
		}
		if Blocked(q, p, regionBoard{b}) != got {
			t.Fatalf("Blocked(%v, %v) is not symmetric", p, q)
		}
		if Blocked(p, q, solidsOf(b)) != got { // board.Solids: Regions, and Layers when flat
			t.Fatalf("Blocked(%v, %v) on board.Solids = %v, reference %v\n%s", p, q, !got, got, dump(b))
		}
		// Raw values scaled far beyond MaxCoord must not panic; beyond the bound they block.
		far := Point{int64(ax) << 48, int64(ay) << 48, int64(az) << 47}
		if !far.InRange() && !Blocked(far, q, b) {
			t.Fatalf("Blocked(%v, …) beyond MaxCoord is clear", far)
		}
		_ = Blocked(Point{math.MaxInt64, int64(by), math.MinInt64}, far, b)
	})
}
