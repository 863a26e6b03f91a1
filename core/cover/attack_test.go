package cover

import (
	"testing"

	"github.com/aoekit/aoekit/core/grid"
	"github.com/aoekit/aoekit/core/los"
)

// §5.7: every boundary of every rule set's grades, f exactly at ¼, ½, ¾ and 1 and just either
// side (a 400th, and with the smallest totals that reach the boundary), and no segments.
func TestGrades_5_7_Boundaries(t *testing.T) {
	none := Grade{Name: "none"}
	type row struct {
		blocked, total int
		tdgs, ds, dnd  Grade
	}
	partial2, half4 := Grade{Name: "partial", Bonus: 2}, Grade{Name: "half", Bonus: 4}
	dsCover, full := Grade{Name: "cover"}, Grade{Name: "full", Full: true}
	cover4, improved8, total := Grade{Name: "cover", Bonus: 4}, Grade{Name: "improved", Bonus: 8}, Grade{Name: "total", Full: true}
	rows := []row{
		{0, 0, none, none, none},             // no segments: no cover
		{0, 400, none, none, none},           // f = 0
		{1, 400, none, none, partial2},       // just above 0: dnd35 partial
		{99, 400, none, none, partial2},      // just below ¼
		{100, 400, partial2, none, partial2}, // ¼: tdgs partial; dnd35 partial up to ¼ inclusive
		{1, 4, partial2, none, partial2},     // ¼ with the fewest segments
		{101, 400, partial2, none, cover4},   // just above ¼: dnd35 cover
		{199, 400, partial2, none, cover4},   // just below ½
		{200, 400, half4, dsCover, cover4},   // ½: tdgs half, drawsteel cover
		{2, 4, half4, dsCover, cover4},       // ½ with the fewest segments
		{201, 400, half4, dsCover, cover4},   // just above ½
		{299, 400, half4, dsCover, cover4},   // just below ¾
		{300, 400, full, dsCover, cover4},    // ¾: tdgs full; dnd35 cover up to ¾ inclusive
		{3, 4, full, dsCover, cover4},        // ¾ with the fewest segments
		{301, 400, full, dsCover, improved8}, // just above ¾: dnd35 improved
		{399, 400, full, dsCover, improved8}, // just below 1
		{48, 49, full, dsCover, improved8},   // just below 1, another total
		{400, 400, full, full, total},        // 1
		{1, 1, full, full, total},            // 1 with one segment
		{7, 7, full, full, total},            // 1, corner-on
		{5, 21, none, none, partial2},        // 0.238 < ¼
		{6, 21, partial2, none, cover4},      // 0.286 > ¼
		{16, 21, full, dsCover, improved8},   // 0.762 > ¾
		{15, 21, half4, dsCover, cover4},     // 0.714 < ¾
	}
	for _, r := range rows {
		if g := TDGS(r.blocked, r.total); g != r.tdgs {
			t.Errorf("TDGS(%d/%d) = %+v, want %+v", r.blocked, r.total, g, r.tdgs)
		}
		if g := DrawSteel(r.blocked, r.total); g != r.ds {
			t.Errorf("DrawSteel(%d/%d) = %+v, want %+v", r.blocked, r.total, g, r.ds)
		}
		if g := DnD35(r.blocked, r.total); g != r.dnd {
			t.Errorf("DnD35(%d/%d) = %+v, want %+v", r.blocked, r.total, g, r.dnd)
		}
	}
}

// §5.7: FromSpace is FromCellOf from the best cell — the least blocked fraction, the first in
// z, y, x order on a tie, melee only from cells adjacent to the target — checked cell by cell
// on random small boards.
func TestFromSpace_5_7_BestCell(t *testing.T) {
	r := newRand(11)
	for i := 0; i < 1500; i++ {
		s := randomSolids(r, 6, 6, 3, 4+r.IntN(16))
		a := randomSpace(r, 5, 5, 2)
		tg := Target{Space: randomSpace(r, 6, 6, 3), Prone: r.IntN(3) == 0}
		kind := []Kind{Area, Ranged, Reach, Melee}[r.IntN(4)]
		standing := r.IntN(2) == 0
		got, from, ok := FromSpace(kind, a, tg, standing, s)
		var best Result
		var bestCell grid.Cell
		found := false
		a.Cells(func(c grid.Cell) {
			if tg.Space.Contains(c) || kind == Melee && tg.Space.DistCell(c) != 1 {
				return
			}
			cr := FromCellOf(kind, a, c, tg, standing, s)
			if !found || cr.Blocked*best.Total() < best.Blocked*cr.Total() {
				best, bestCell, found = cr, c, true
			}
		})
		if ok != found {
			t.Fatalf("%d: attacker %+v target %+v kind %d: ok %v, want %v", i, a, tg, kind, ok, found)
		}
		if !found {
			continue
		}
		if from != bestCell || got.Blocked != best.Blocked || got.Total() != best.Total() {
			t.Fatalf("%d: attacker %+v target %+v kind %d: %d/%d from %v, want %d/%d from %v",
				i, a, tg, kind, got.Blocked, got.Total(), from, best.Blocked, best.Total(), bestCell)
		}
	}
}

// SegmentBound counts exactly the segments judged when no boosted corner is dropped (heights
// below 4, SPEC §5.4): per usable cell, every turned corner's segments for Ranged and Reach,
// the one cell's segments for Melee and Area.
func TestSegmentBound_8_3_Exact(t *testing.T) {
	r := newRand(12)
	for i := 0; i < 2000; i++ {
		rs := func(n int) grid.Space {
			return grid.Space{Anchor: grid.C(r.IntN(n), r.IntN(n), r.IntN(n)), Size: 1 + r.IntN(3), Height: 1 + r.IntN(3)}
		}
		a, tg := rs(6), rs(6)
		kind := []Kind{Area, Ranged, Reach, Melee}[r.IntN(4)]
		standing := r.IntN(2) == 0
		want := int64(0)
		a.Cells(func(c grid.Cell) {
			if tg.Contains(c) || kind == Melee && tg.DistCell(c) != 1 {
				return
			}
			if kind == Ranged || kind == Reach {
				for _, p := range turnedCorners(c, tg) {
					want += int64(FromPoint(p, Target{Space: tg}, nil).Total())
				}
				return
			}
			want += int64(FromCell(kind, c, Target{Space: tg}, standing, nil).Total())
		})
		if got := SegmentBound(kind, a, tg, standing, 1<<40); got != want {
			t.Fatalf("%d: SegmentBound(%d, %+v, %+v, %v) = %d, want %d", i, kind, a, tg, standing, got, want)
		}
		if want > 10 {
			if got := SegmentBound(kind, a, tg, standing, 10); got <= 10 {
				t.Fatalf("%d: the bound with limit 10 is %d, want above 10 (the count is %d)", i, got, want)
			}
		}
	}
	// The largest spaces stop counting early.
	huge := grid.Space{Anchor: grid.C(0, 0, 0), Size: 100, Height: 100}
	far := grid.Space{Anchor: grid.C(500, 0, 0), Size: 100, Height: 100}
	if got := SegmentBound(Ranged, huge, far, true, 1000); got <= 1000 || got > 1000+4*40000 {
		t.Errorf("huge spaces: %d, want just past 1000", got)
	}
}

// FromSpace with a single-cell space is FromCell; the inset source points of a one-cell
// attacker are those of §5.4.
func TestFromSpace_5_4_OneCell(t *testing.T) {
	tg := unit(4, 0, 0)
	r, from, ok := FromSpace(Ranged, grid.Unit(grid.C(0, 0, 0)), tg, true, nil)
	if !ok || from != grid.C(0, 0, 0) || r.Total() != 4 || r.Segments[0].From != (los.Point{X: 399, Y: 1, Z: 1}) {
		t.Errorf("one cell: ok %v from %v, %d segments from %v", ok, from, r.Total(), r.Segments[0].From)
	}
	if _, _, ok := FromSpace(Melee, grid.Unit(grid.C(0, 0, 0)), tg, true, nil); ok {
		t.Errorf("melee against a target 4 squares away found a cell")
	}
}
