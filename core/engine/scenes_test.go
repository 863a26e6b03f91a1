package engine

import (
	"strings"
	"testing"
)

// Hand-checked scenes. Coordinates in the reasoning are lattice units (SPEC §5.1: 400 to a
// cell): cell (x, y, 0) spans [400x, 400x+400] × [400y, 400y+400] × [0, 400], its centre is
// (400x+200, 400y+200, 200), and its inset corners sit at 400k+1 and 400k+399. An area's cover
// source is the centre of its origin cell (SPEC §5.4); a standing 1-high target's lowest
// corners are raised by 120 (0.3 × 400), from z = 1 to z = 121.

// want is what a test expects of one target.
type want struct {
	inArea, affected bool
	reason, cover    string
	bonus            int
	blocked, lines   int
}

func checkTarget(t *testing.T, tg Target, w want) {
	t.Helper()
	n := 0
	for _, l := range tg.Lines {
		if l.Blocked {
			n++
		}
	}
	if n != tg.Blocked {
		t.Errorf("%s: Blocked = %d but %d of its lines are blocked", tg.ID, tg.Blocked, n)
	}
	got := want{tg.InArea, tg.Affected, string(tg.Reason), string(tg.Cover), tg.Bonus, tg.Blocked, len(tg.Lines)}
	if got != w {
		t.Errorf("%s: got %+v\n\twant %+v", tg.ID, got, w)
	}
}

// blockedEnds returns, per line end (x, y) in world units, whether every line to a point
// above it is blocked (true), none is (false); mixed ends fail the test.
func blockedEnds(t *testing.T, tg Target) map[[2]float64]bool {
	t.Helper()
	out := map[[2]float64]bool{}
	seen := map[[2]float64]bool{}
	for _, l := range tg.Lines {
		k := [2]float64{l.To[0], l.To[1]}
		if seen[k] && out[k] != l.Blocked {
			t.Fatalf("%s: lines to (%v, %v) differ by height", tg.ID, k[0], k[1])
		}
		seen[k], out[k] = true, l.Blocked
	}
	return out
}

// w400 is a lattice coordinate in world units.
func w400(v int) float64 { return float64(v) / 400 }

// §5.5 tdgs full cover: a pillar straight between the origin and the target.
//
// Source (200, 1000, 200), the centre of @. The target g spans x ∈ [800, 1200] and shows its
// west face only (the source lies within its y and z ranges): 4 corners at x = 801,
// y ∈ {801, 1199}, z ∈ {121, 399}. Every segment crosses x ∈ [400, 800] at y strictly inside
// (800, 1200) and z strictly inside (0, 400): inside the pillar. 4 of 4 blocked, f = 1 ≥ ¾:
// full, untargetable, not affected, reason "cover" (SPEC §7.2).
func TestScene_5_5_PillarGivesFullCover(t *testing.T) {
	s := parseScene(t, `
		.....C
		......
		@#g...
	`)
	req := s.request("Cir2h1")
	req.Origin = s.pos(t, '@')
	req.Range = Range{Kind: "squares", Squares: 10}
	res := mustEvaluate(t, req)
	if ids := targetIDs(res); len(ids) != 1 {
		t.Fatalf("targets %v, want only g (the caster is 5 squares away)", ids)
	}
	checkTarget(t, targetOf(t, res, "g"), want{inArea: true, reason: "cover", cover: "full", blocked: 4, lines: 4})
}

// §5.5 tdgs, §1.6: a low wall (fill 0.5, solid up to z = 200) between the origin and the
// target. The source sits at z = 200, level with the wall's top. Segments to the raised low
// corners (z = 121) descend through x ∈ [400, 800] at z ∈ (121, 174) < 200: blocked. Segments
// to the upper corners (z = 399) rise above 200 as soon as they leave the source's cell
// (z = 266 at x = 400): clear. 2 of 4, f = ½: half, +4 REF, still affected.
func TestScene_5_5_LowWallGivesHalf(t *testing.T) {
	s := parseScene(t, `@_g`)
	req := s.request("Cir2h1")
	req.Origin = s.pos(t, '@')
	res := mustEvaluate(t, req)
	g := targetOf(t, res, "g")
	checkTarget(t, g, want{inArea: true, affected: true, cover: "half", bonus: 4, blocked: 2, lines: 4})
	for _, l := range g.Lines {
		if low := l.To[2] < 0.5; l.Blocked != low {
			t.Errorf("line to %v blocked=%v; want blocked exactly when it ends low", l.To, l.Blocked)
		}
	}
}

// §5.2, §5.5: a wall beside the line, not between. The target's west corners are at
// y ∈ {1, 399}; every segment from (200, 200) keeps y inside (1, 399), so it never reaches
// the wall at y ∈ [400, 800]: no cover.
func TestScene_5_2_WallBesideGivesNoCover(t *testing.T) {
	s := parseScene(t, `
		@.g
		.#.
	`)
	req := s.request("Cir2h1")
	req.Origin = s.pos(t, '@')
	res := mustEvaluate(t, req)
	checkTarget(t, targetOf(t, res, "g"), want{inArea: true, affected: true, cover: "none", lines: 4})
}

// §5.4, §5.5: a target standing in the mouth of a corridor, seen at an angle.
//
// Source (200, 1400), the centre of @. g spans [1200, 1600] × [400, 800]; the source is west
// and south of it, so it shows two faces (edge-on, 6 points): (1201, 401), (1201, 799) and
// (1599, 799), each at z ∈ {121, 399}.
//   - to (1201, 401): the segment runs through columns 0–2 (empty) and enters g at x = 1200,
//     y ≈ 402: clear.
//   - to (1201, 799): it crosses y = 800 at x ≈ 1199.3, still in the empty column 2: clear.
//   - to (1599, 799): it is at y ≈ 970 when it reaches x = 1200, inside the corridor's south
//     wall (3, 2): blocked.
//
// 2 of 6, f = ⅓: partial, +2 REF.
func TestScene_5_4_TargetInCorridorMouth(t *testing.T) {
	s := parseScene(t, `
		...###
		...g..
		...###
		@.....
	`)
	req := s.request("Cir3h1")
	req.Origin = s.pos(t, '@')
	res := mustEvaluate(t, req)
	g := targetOf(t, res, "g")
	checkTarget(t, g, want{inArea: true, affected: true, cover: "partial", bonus: 2, blocked: 2, lines: 6})
	ends := blockedEnds(t, g)
	wantEnds := map[[2]float64]bool{
		{w400(1201), w400(401)}: false,
		{w400(1201), w400(799)}: false,
		{w400(1599), w400(799)}: true,
	}
	if len(ends) != len(wantEnds) {
		t.Fatalf("line ends %v, want %v", ends, wantEnds)
	}
	for k, b := range wantEnds {
		if got, ok := ends[k]; !ok || got != b {
			t.Errorf("lines to %v: blocked=%v (present %v), want %v", k, got, ok, b)
		}
	}
}

// §5.2 diagonal pinch: blocks (2,1) and (1,2) meet only along the vertical edge x = y = 800.
//
// Source (200, 200), the centre of @; g at (3, 3) shows its west and north faces (6 points):
// (1201, 1201), (1201, 1599), (1599, 1201) at z ∈ {121, 399}.
//   - to (1201, 1201): the segment runs along x = y and passes exactly through the pinch
//     (800, 800): blocked, no squeezing between solids that meet diagonally.
//   - to (1201, 1599): it reaches y = 800 at x ≈ 629, inside block (1, 2): blocked.
//   - to (1599, 1201): symmetric, inside block (2, 1): blocked.
//
// 6 of 6: full cover. Without block (1, 2) the first segment only touches the corner of one
// solid (a graze, clear), the second passes below block (2, 1) (y ≈ 1039 at x = 800): clear;
// the third is still blocked: 2 of 6, partial.
func TestScene_5_2_DiagonalPinch(t *testing.T) {
	pinch := parseScene(t, `
		@....
		..#..
		.#...
		...g.
	`)
	req := pinch.request("Cir3h1")
	req.Origin = pinch.pos(t, '@')
	g := targetOf(t, mustEvaluate(t, req), "g")
	checkTarget(t, g, want{inArea: true, reason: "cover", cover: "full", blocked: 6, lines: 6})

	one := parseScene(t, `
		@....
		..#..
		.....
		...g.
	`)
	req = one.request("Cir3h1")
	req.Origin = one.pos(t, '@')
	g = targetOf(t, mustEvaluate(t, req), "g")
	checkTarget(t, g, want{inArea: true, affected: true, cover: "partial", bonus: 2, blocked: 2, lines: 6})
	ends := blockedEnds(t, g)
	if ends[[2]float64{w400(1201), w400(1201)}] {
		t.Errorf("the segment through a single block's corner is blocked; a graze must be clear")
	}
	if !ends[[2]float64{w400(1599), w400(1201)}] {
		t.Errorf("the segment through block (2,1) is clear")
	}
}

// §5.4 multi-cell target, §7.1: a 2×2 target (height 2) half behind a 2-high pillar.
//
// Source (200, 600, 200), the centre of @. g spans [1200, 2000] × [0, 800] × [0, 800] and
// shows its west face only: the cells (3,0) and (3,1) at levels 0 and 1, 16 corners at
// x = 1201, y ∈ {1, 399, 401, 799}, z ∈ {241, 399, 401, 799} (the lowest raised by
// 0.3 × 2 × 400 = 240). The pillar (2,0) spans [800, 1200] × [0, 400] × [0, 800].
//   - y = 1: the segment is at y ≈ 241 at x = 800: inside the pillar.
//   - y = 399: it dips below y = 400 for x ∈ (1196, 1200), at heights below 800: inside.
//   - y ∈ {401, 799}: y stays above 400 all the way: clear.
//
// 8 of 16, f = ½: half. The token is listed once (§7.1) though 4 of its cells are in the area.
func TestScene_5_4_LargeTargetHalfBehindPillar(t *testing.T) {
	s := parseScene(t, `
		..#gg
		@..gg
	`)
	req := s.request("Cir4h1")
	req.Origin = s.pos(t, '@')
	req.Obstacles = append(req.Obstacles, Obstacle{X: 2, Y: 0, Z: 1, Fill: 1})
	res := mustEvaluate(t, req)
	if len(res.Targets) != 1 {
		t.Fatalf("targets %v, want g once", targetIDs(res))
	}
	g := res.Targets[0]
	checkTarget(t, g, want{inArea: true, affected: true, cover: "half", bonus: 4, blocked: 8, lines: 16})
	for _, l := range g.Lines {
		if north := l.To[1] < 1; l.Blocked != north {
			t.Errorf("line to %v blocked=%v; want blocked exactly for the northern cell", l.To, l.Blocked)
		}
	}
}

// §5.4 low-point boost: a step (fill 0.3, solid up to z = 120) between the origin and the
// target. Standing, the target's low corners are raised to z = 121: the segment from
// (200, 200, 200) to (801, y, 121) is at z ≈ 121.1 where it leaves the step (x = 800), above
// it: 0 of 4 blocked, no cover. Prone, there is no boost: the low corners stay at z = 1 and
// the segments to them dip below 120 from x ≈ 441 on, inside the step: 2 of 4, half.
func TestScene_5_4_ProneVsStandingBehindStep(t *testing.T) {
	s := parseScene(t, `@=g`)
	req := s.request("Cir2h1")
	req.Origin = s.pos(t, '@')
	g := targetOf(t, mustEvaluate(t, req), "g")
	checkTarget(t, g, want{inArea: true, affected: true, cover: "none", lines: 4})
	for _, l := range g.Lines {
		if l.To[2] < 0.5 && l.To[2] != w400(121) {
			t.Errorf("standing: low corner at z = %v, want %v", l.To[2], w400(121))
		}
	}

	req = s.request("Cir2h1")
	req.Origin = s.pos(t, '@')
	req.Tokens[0].Prone = true
	g = targetOf(t, mustEvaluate(t, req), "g")
	checkTarget(t, g, want{inArea: true, affected: true, cover: "half", bonus: 4, blocked: 2, lines: 4})
	for _, l := range g.Lines {
		if low := l.To[2] == w400(1); l.Blocked != low {
			t.Errorf("prone: line to %v blocked=%v; want blocked exactly for the unboosted low corners", l.To, l.Blocked)
		}
	}
}

// §5.4 culling, through the engine: a target shows 4 corners face-on, 6 edge-on and 7
// corner-on (here one level above the origin, so the boost does not apply: the source is
// below the target's lowest level).
func TestScene_5_4_PointCountsThroughLines(t *testing.T) {
	s := parseScene(t, `
		.....
		..@.f
		....e
	`)
	req := s.request("Cir3")
	req.Origin = s.pos(t, '@')
	req.Tokens = append(req.Tokens, Token{ID: "k", X: 4, Y: 0, Z: 1, Side: "enemy"})
	res := mustEvaluate(t, req)
	for id, n := range map[string]int{"f": 4, "e": 6, "k": 7} {
		if got := len(targetOf(t, res, id).Lines); got != n {
			t.Errorf("%s: %d lines, want %d", id, got, n)
		}
	}
	for _, l := range targetOf(t, res, "k").Lines {
		if l.To[2] != w400(401) && l.To[2] != w400(799) {
			t.Errorf("k: corner at z = %v; a target above the source gets no boost", l.To[2])
		}
	}
}

// §3.2 Draw Steel barriers: "2 burst" from the caster beside a wall one square high. At
// level 0 no corner-to-corner segment from the caster's cell can cross the wall (every
// corner lies at 0 < z < 400, inside the wall's height, and the wall spans the picture), so
// the squares east of it are not in the area; the wall's own squares are solid. The token g
// there overlaps the shape but not the area: listed, not affected, reason "barrier".
func TestScene_3_2_BurstCutByWall(t *testing.T) {
	s := parseScene(t, `
		....#..
		....#..
		....#..
		...C#g.
		....#..
		....#..
		....#..
	`)
	res := mustEvaluate(t, s.request("2 burst"))
	s.checkPicture(t, ints(res.Cells), 0, `
		....#..
		.***#..
		.***#..
		.***#g.
		.***#..
		.***#..
		....#..
	`)
	if ids := targetIDs(res); strings.Join(ids, ",") != "caster,g" {
		t.Fatalf("targets %v, want caster then g", ids)
	}
	checkTarget(t, res.Targets[0], want{inArea: true, affected: true, cover: "none"})
	checkTarget(t, res.Targets[1], want{reason: "barrier", cover: "none"})
}

// §4.3 the 50 % circle wraps around obstacles and does not enter a closed room.
//
// Circle 3 (37 cells, §4.1) centred on @: rows dy = 0, ±1 span dx = −3…3, dy = ±2 span −2…2,
// dy = ±3 span −1…1. The pillar east of the centre is left out, and the two cells behind it
// are reached around it. The room's inside (3,6), (3,7) is in the disc but walled off on
// every side (4-connected): left out. The low wall '_' does not stop the circle. 37 − 8 solid
// − 2 in the room = 27 cells.
func TestScene_4_3_Circle50WrapsPillarNotClosedRoom(t *testing.T) {
	s := parseScene(t, `
		...........
		...........
		...........
		....._.....
		...........
		..###@#....
		..#.#......
		..#.#......
		..###......
		...........
		...........
	`)
	req := s.request("circle 3")
	req.Origin = s.pos(t, '@')
	res := mustEvaluate(t, req)
	s.checkPicture(t, ints(res.Cells), 0, `
		...........
		...........
		....***....
		...*****...
		..*******..
		..###*#**..
		..#.#****..
		..#.#***...
		..###**....
		...........
		...........
	`)
	if res.Count != 27 {
		t.Errorf("count %d, want 27", res.Count)
	}
	for _, c := range res.Cells {
		if c[2] != 0 {
			t.Errorf("cell %v off the origin's level; the circle is flat (§4.1)", c)
		}
	}
}
