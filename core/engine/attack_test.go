package engine_test

import (
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/aoekit/aoekit/core/engine"
)

// Attack cover (SPEC §5.4, §5.7, seed 004). Coordinates in the comments are lattice units
// (SPEC §5.1): cell (x, y, z) spans [400x, 400x+400] on each axis, and its inset corners sit
// at 400x+1 and 400x+399. Lines in results are in cells (lattice / 400).

func coverOf(t *testing.T, req engine.CoverRequest) *engine.CoverResult {
	t.Helper()
	res, err := engine.Cover(&req)
	if err != nil {
		t.Fatalf("Cover(%+v): %v", req, err)
	}
	if len(res.Lines) != res.Total || res.LineOfEffect != (res.Blocked < res.Total) {
		t.Fatalf("Cover(%+v): %d lines for total %d, lineOfEffect %v with %d blocked", req, len(res.Lines), res.Total, res.LineOfEffect, res.Blocked)
	}
	n := 0
	for _, l := range res.Lines {
		if l.Blocked {
			n++
		}
	}
	if n != res.Blocked {
		t.Fatalf("Cover(%+v): %d lines blocked, blocked says %d", req, n, res.Blocked)
	}
	return res
}

// sources are the distinct source points of a result's lines, in lattice units.
func sources(res *engine.CoverResult) [][3]int64 {
	var out [][3]int64
	for _, l := range res.Lines {
		p := lattice(l.From)
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// targetsOf are the distinct target points of a result's lines, in lattice units.
func targetsOf(res *engine.CoverResult) [][3]int64 {
	var out [][3]int64
	for _, l := range res.Lines {
		p := lattice(l.To)
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

func lattice(p [3]float64) [3]int64 {
	var q [3]int64
	for a := range 3 {
		v := p[a] * 400
		if v < 0 {
			v -= 0.5
		} else {
			v += 0.5
		}
		q[a] = int64(v)
	}
	return q
}

type gradeWant struct {
	grade          engine.Grade
	bonus          int
	blocked, total int
}

func checkGrade(t *testing.T, name string, res *engine.CoverResult, w gradeWant) {
	t.Helper()
	if res.Grade != w.grade || res.Bonus != w.bonus || res.Blocked != w.blocked || res.Total != w.total {
		t.Errorf("%s: %s +%d, %d/%d; want %s +%d, %d/%d", name, res.Grade, res.Bonus, res.Blocked, res.Total, w.grade, w.bonus, w.blocked, w.total)
	}
}

// §5.4 (seed 004): a one-cell target shows 4 corners face-on, 6 edge-on and 7 corner-on.
// Ranged and reach judge one source corner, so the totals are those counts; melee judges every
// turned corner of the attacker's cell against every turned corner of the target: 4 × 4,
// 6 × 6 and 7 × 7 (upward, so nothing is left out).
func TestCover_5_4_PointCounts(t *testing.T) {
	for _, c := range []struct {
		name           string
		target         engine.Token
		ranged, melee  int
		meleeTarget    engine.Token
		meleeSrc, mTgt int
	}{
		{"face-on", engine.Token{X: 3}, 4, 16, engine.Token{X: 1}, 4, 4},
		{"edge-on", engine.Token{X: 3, Y: 3}, 6, 36, engine.Token{X: 1, Y: 1}, 6, 6},
		{"corner-on", engine.Token{X: 3, Y: 3, Z: 2}, 7, 49, engine.Token{X: 1, Y: 1, Z: 1}, 7, 7},
	} {
		for _, kind := range []engine.AttackKind{"ranged", "reach"} {
			res := coverOf(t, engine.CoverRequest{Attack: kind, Target: c.target})
			if res.Total != c.ranged || len(sources(res)) != 1 {
				t.Errorf("%s %s: %d target points from %d sources, want %d from 1", c.name, kind, res.Total, len(sources(res)), c.ranged)
			}
		}
		res := coverOf(t, engine.CoverRequest{Attack: "melee", Target: c.meleeTarget})
		if res.Total != c.melee || len(sources(res)) != c.meleeSrc || len(targetsOf(res)) != c.mTgt {
			t.Errorf("%s melee: %d segments, %d sources, %d target points; want %d, %d, %d",
				c.name, res.Total, len(sources(res)), len(targetsOf(res)), c.melee, c.meleeSrc, c.mTgt)
		}
	}
}

// §5.4 ranged and reach: one source point, the corner of the attacker's cell that leaves the
// least cover. A low wall (fill 0.5: solid up to z = 200) stands in (1,0,0); the target is
// (4,0,0), whose west corners are x = 1601, y ∈ {1, 399}, z ∈ {121 (boosted 1 + 120), 399}.
// From a lower corner (399, y, 1) the segments cross the wall's far face x = 800 at
// z ≤ 1 + 398·401/1202 < 134: all 4 blocked. From an upper corner (399, y, 399) the lowest
// segment (to z = 121) is at z = 399 − 278·401/1202 ≈ 306 over x = 800: clear, 0 of 4. The
// first corner in z, y, x order, (399, 1, 1), is a lower one; the one chosen is the first
// upper one, (399, 1, 399). With no wall every corner leaves 0 of 4, and the tie goes to
// (399, 1, 1).
func TestCover_5_4_RangedCornerLeastCover(t *testing.T) {
	wall := []engine.Obstacle{{X: 1, Fill: 0.5}}
	for _, kind := range []engine.AttackKind{"ranged", "reach"} {
		res := coverOf(t, engine.CoverRequest{Attack: kind, Target: engine.Token{X: 4}, Obstacles: wall})
		checkGrade(t, string(kind), res, gradeWant{"none", 0, 0, 4})
		if s := sources(res); len(s) != 1 || s[0] != [3]int64{399, 1, 399} || res.From != [3]int32{0, 0, 0} {
			t.Errorf("%s: from %v via %v, want [0 0 0] via (399, 1, 399)", kind, res.From, s)
		}
		res = coverOf(t, engine.CoverRequest{Attack: kind, Target: engine.Token{X: 4}})
		if s := sources(res); len(s) != 1 || s[0] != [3]int64{399, 1, 1} {
			t.Errorf("%s without a wall: via %v, want the first corner (399, 1, 1)", kind, s)
		}
	}
}

// §5.4 low-point boost: none for a prone target. A step (fill 0.25: solid up to z = 100)
// stands in (3,0,0), right before the target (4,0,0). Standing, the target's low corners are
// raised to z = 121: from the attacker's upper corner (399, y, 399) the segment to
// (1601, y', 121) is at z = 399 − 278·1201/1202 ≈ 121.2 > 100 even at the step's far face
// x = 1600: clear, 0 of 4 (none). Prone, the low corners stay at z = 1: every segment to
// them ends at z = 1 + … < 100 over x ∈ (1200, 1600), inside the step, from every source
// corner; those to the upper corners (z = 399) pass over it. 2 of 4 from every corner: ½,
// tdgs half (+4), drawsteel cover (a bane), dnd35 cover (+4); the tie goes to the first
// corner (399, 1, 1).
func TestCover_5_4_ProneTarget(t *testing.T) {
	step := []engine.Obstacle{{X: 3, Fill: 0.25}}
	for _, c := range []struct {
		rules  engine.Rules
		prone  bool
		expect gradeWant
	}{
		{"tdgs", false, gradeWant{"none", 0, 0, 4}},
		{"tdgs", true, gradeWant{"half", 4, 2, 4}},
		{"drawsteel", true, gradeWant{"cover", 0, 2, 4}},
		{"dnd35", true, gradeWant{"cover", 4, 2, 4}},
		{"dnd35", false, gradeWant{"none", 0, 0, 4}},
	} {
		res := coverOf(t, engine.CoverRequest{Rules: c.rules, Attack: "ranged", Target: engine.Token{X: 4, Prone: c.prone}, Obstacles: step})
		checkGrade(t, string(c.rules)+" prone="+map[bool]string{true: "yes", false: "no"}[c.prone], res, c.expect)
		for _, p := range targetsOf(res) {
			if low := p[2] < 399; low && (c.prone && p[2] != 1 || !c.prone && p[2] != 121) {
				t.Errorf("%s prone=%v: low target corner at z = %d", c.rules, c.prone, p[2])
			}
		}
		if c.prone && sources(res)[0] != [3]int64{399, 1, 1} {
			t.Errorf("prone: via %v, want the first corner on a tie", sources(res))
		}
	}
}

// §5.4 melee, the same-level adjustment (seed 004: lower corners rise 30 %, upper ones drop
// 5 %, "so that a step lower than 1.5 ft does not give cover"). The attacker stands on a
// 1.25-ft step, fill 0.25 in its own cell (0,0,0): solid up to z = 100. The target is on the
// floor of the next cell (1,0,0). Source corners: the attacker's east face, x = 399, the lower
// ones at 1 + 120 = 121 (above the step), the upper ones at 399 − 20 = 379. Target corners:
// its west face, x = 401, z ∈ {1, 399}, no boost in melee. Segments:
//
//   - (399, ·, 121) → (401, ·, 1): z = 121 − 60·(x − 399) drops below 100 at x ≈ 399.35,
//     still inside the attacker's cell: in the step, blocked (2 × 2 = 4);
//   - (399, ·, 121) → (401, ·, 399): rising, clear;
//   - (399, ·, 379) → (401, ·, 1): z ≈ 190 at x = 400, clear; → (401, ·, 399): clear.
//
// 4 of 16, f = ¼ exactly: dnd35 partial (+2, 0 < f ≤ ¼), drawsteel none (f < ½), tdgs none
// (no cover in melee). Without the adjustment the lower corners (z = 1) would lie inside the
// step and block all 8 of their segments: ½, dnd35 cover (+4), drawsteel cover.
func TestCover_5_4_MeleeSameLevelAdjustment(t *testing.T) {
	step := []engine.Obstacle{{X: 0, Fill: 0.25}}
	for _, c := range []struct {
		rules  engine.Rules
		expect gradeWant
	}{
		{"dnd35", gradeWant{"partial", 2, 4, 16}},
		{"drawsteel", gradeWant{"none", 0, 4, 16}},
		{"tdgs", gradeWant{"none", 0, 4, 16}},
	} {
		res := coverOf(t, engine.CoverRequest{Rules: c.rules, Attack: "melee", Target: engine.Token{X: 1}, Obstacles: step})
		checkGrade(t, "attacker on a step, "+string(c.rules), res, c.expect)
		want := [][3]int64{{399, 1, 121}, {399, 399, 121}, {399, 1, 379}, {399, 399, 379}}
		if s := sources(res); len(s) != 4 || !sameSet(s, want) {
			t.Errorf("sources %v, want %v", s, want)
		}
	}
}

// §5.4 ruling R1: in melee a target stands on the fill of its own cell. The attacker is on
// the floor of (0,0,0); the target stands on a step of fill F (in 1/400: solid up to z = F)
// in its own cell, and the step is the only solid.
//
// Face-on, target (1,0,0), same level: the attacker's east corners are (399, ·, 121) and
// (399, ·, 379) (raised 120, lowered 20); the target shows its west face, its lowest corners
// on the step at (401, ·, F + 1), its upper ones at (401, ·, 399). The step is x ∈ [400, 800],
// z ∈ [0, F]; a segment from x = 399 to x = 401 that ends above F is over the step past
// x = 400 when its height at x = 400 is above F. There:
//
//   - (399, ·, 121) → (401, ·, F + 1): z = (122 + F)/2 at x = 400, above F exactly when
//     F < 122; at F = 122 it touches the step's top edge (400, ·, 122), which does not block
//     (SPEC §5.2: touching one solid's edge); from F = 123 it dips into the step: blocked;
//   - (399, ·, 121) → (401, ·, 399): z = 260 at x = 400; (399, ·, 379) → (401, ·, F + 1):
//     z = (380 + F)/2; the upper pairs higher still: clear for every F below 260.
//
// So the raised source corners (0.3 up, seed 004's "less than 1.5 feet") see over every step
// up to F = 122. At f = 0.3 exactly (F = 120) the lower segments run level at z = 121, 1/400
// above the step: clear, no cover; 0.3025 and 0.305 (F = 121, 122, the last touching the
// edge) are clear too: the source corner's inset (1 + 120 = 121) and the target corner's
// (F + 1) move the seed's threshold from 120 to 122.5. From F = 123 (0.3075) the 2 × 2 lower
// segments are blocked: 4 of 16, f = ¼, dnd35 partial (+2), drawsteel none. F = 100 (0.25):
// 0 of 16, none; F = 160 (0.4): 4 of 16 (z = 141 at x = 400), partial. Prone or standing
// alike: a creature lies on the step as it stands on it (and melee has no boost either way).
//
// Diagonal, target (1,1,0), step x, y ∈ [400, 800], z ∈ [0, F]: 6 source points, the east and
// south faces — S1 (399, 1, ·), S2 (399, 399, ·), S3 (1, 399, ·) at z 121 and 379 — and 6
// target points, the west and north faces — T1 (401, 401, ·), T2 (799, 401, ·), T3 (401, 799, ·)
// at z F + 1 and 399: 36 segments. A segment enters the step's column at t_e, the later of
// its crossings of x = 400 and y = 400, and is blocked when it is below F there (then it is
// inside the step just after). F = 100: every segment stays at or above min(121, F + 1) = 101
// > 100: 0 of 36, none. F = 160: from the lower corners (z = 121 + 40t) to the lower ones,
// blocked when t_e < 39/40: S1→T3, S2→T1 (t_e = ½: through the column's edge (400, 400, 141)),
// S2→T2, S2→T3, S3→T2 (t_e = ½); S1→T1, S1→T2, S3→T1, S3→T3 enter at t_e = 399/400, at
// z = 160.9, over the step. Rising to z = 399 (121 + 278t) they are blocked only for
// t_e < 39/278 < ½, never here; from z = 379 they fall no lower than F + 1. 5 of 36, 0.139,
// dnd35 partial (+2).
//
// Fills that leave the corner not below the upper one are dropped: F = 398 (1 − 2/400) would
// put it at 399. Face-on, 4 sources × 2 upper corners (401, ·, 399): every segment crosses
// x = 400 below 398 (at 260 or 389), inside the step: 8 of 8, total. F = 397 keeps them at
// 398: 16 of 16.
func TestCover_5_4_MeleeTargetOnItsOwnStep(t *testing.T) {
	for _, c := range []struct {
		name   string
		target engine.Token
		fill   int // in 1/400
		prone  bool
		low    int64 // z of the target's lowest corners; 0 when dropped
		expect gradeWant
	}{
		{"face-on, 0.25", engine.Token{X: 1}, 100, false, 101, gradeWant{"none", 0, 0, 16}},
		{"face-on, 0.25, prone", engine.Token{X: 1, Prone: true}, 100, true, 101, gradeWant{"none", 0, 0, 16}},
		{"face-on, 0.3", engine.Token{X: 1}, 120, false, 121, gradeWant{"none", 0, 0, 16}},
		{"face-on, 0.3025", engine.Token{X: 1}, 121, false, 122, gradeWant{"none", 0, 0, 16}},
		{"face-on, 0.305 (touching the step's edge)", engine.Token{X: 1}, 122, false, 123, gradeWant{"none", 0, 0, 16}},
		{"face-on, 0.3075", engine.Token{X: 1}, 123, false, 124, gradeWant{"partial", 2, 4, 16}},
		{"face-on, 0.4", engine.Token{X: 1}, 160, false, 161, gradeWant{"partial", 2, 4, 16}},
		{"face-on, 0.9925", engine.Token{X: 1}, 397, false, 398, gradeWant{"total", 0, 16, 16}},
		{"face-on, 0.995 (dropped)", engine.Token{X: 1}, 398, false, 0, gradeWant{"total", 0, 8, 8}},
		{"diagonal, 0.25", engine.Token{X: 1, Y: 1}, 100, false, 101, gradeWant{"none", 0, 0, 36}},
		{"diagonal, 0.4", engine.Token{X: 1, Y: 1}, 160, false, 161, gradeWant{"partial", 2, 5, 36}},
	} {
		step := []engine.Obstacle{{X: c.target.X, Y: c.target.Y, Fill: float64(c.fill) / 400}}
		res := coverOf(t, engine.CoverRequest{Rules: "dnd35", Attack: "melee", Target: c.target, Obstacles: step})
		checkGrade(t, c.name, res, c.expect)
		for _, p := range targetsOf(res) {
			if p[2] != 399 && p[2] != c.low {
				t.Errorf("%s: target point %v, want z = %d or 399", c.name, p, c.low)
			}
		}
		if c.fill == 123 {
			for _, l := range res.Lines {
				from, to := lattice(l.From), lattice(l.To)
				if want := from[2] == 121 && to[2] == 124; l.Blocked != want {
					t.Errorf("%s: %v → %v blocked=%v, want %v", c.name, from, to, l.Blocked, want)
				}
			}
		}
	}
	// The same steps at range keep the low-point boost (SPEC §5.4): the target (4,0,0) on the
	// step 0.4 shows its west face with the low corners raised from the floor, to z = 121,
	// inside the step (z ≤ 160): every segment to them ends in solid matter, 2 of 4 from every
	// corner of the attacker (½, dnd35 cover), as before the ruling.
	res := coverOf(t, engine.CoverRequest{Rules: "dnd35", Attack: "ranged", Target: engine.Token{X: 4}, Obstacles: []engine.Obstacle{{X: 4, Fill: 0.4}}})
	checkGrade(t, "ranged, 0.4", res, gradeWant{"cover", 4, 2, 4})
	// Struck from below, straight up: the attacker in (0,0,0) shows its top face, 4 corners at
	// z = 399; the target in (0,0,1) stands on a fill 0.995 (z ≤ 798) and shows its bottom face.
	// The fill lies between them: its corners stay at the floor, z = 401, inside the fill (as
	// with the boost, a source below the target's floor changes nothing; dropping them would
	// leave no point at all): 16 of 16, total.
	res = coverOf(t, engine.CoverRequest{Rules: "dnd35", Attack: "melee", Target: engine.Token{Z: 1}, Obstacles: []engine.Obstacle{{Z: 1, Fill: 0.995}}})
	checkGrade(t, "straight up, 0.995", res, gradeWant{"total", 0, 16, 16})
}

// §5.4 melee striking down from a 5-ft ledge (seed 004), ruling R2. The attacker stands in
// (0,0,1) on a full block (0,0,0); the target is on the floor below.
//
// Standing: the bottom face is left out, and so is the ground under the attacker, (0,0,0),
// the only solid: nothing blocks. Adjacent and down, target (1,0,0): 4 source points (the
// east face, x = 399, z ∈ {401, 799}, no same-level adjustment) × 6 target points (its west
// face (401, ·, 1|399) and top face (401|799, ·, 399)) = 24, 0 blocked: none. Diagonal and
// down, target (1,1,0): 6 source points (east and south faces) × 7 target points (west,
// north and top faces, corner-on from above) = 42, 0 blocked: none. (Before R2 the lower
// front corners, 1/400 behind the ledge's edge, clipped it: 4 of 24 and 5 of 42, partial.)
//
// Flying, the bottom face stays and every solid counts. Adjacent: 6 source points × 6 = 36;
// blocked: from the lower east corners (399, ·, 401) down to (401, ·, 1), dipping into the
// ledge before leaving it (z = 401 − 200·(x − 399) is below 400 from x = 399.005): 2 × 2 = 4;
// from the back corners (1, ·, 401) every segment to the west face (2 × 4 = 8; to the top
// face at x = 799 they leave the ledge's column before dipping below z = 400): 12 of 36, ⅓,
// cover (+4). ((399, ·, 799) → (401, ·, 1) passes exactly through the ledge's edge
// (400, ·, 400): touching one solid's edge does not block.) Diagonal: 7 × 7 = 49; blocked:
// (399, 1, 401) → (401, 401, 1) and (401, 799, 1); (1, 399, 401) → (401, 401, 1) and
// (799, 401, 1); (399, 399, 401) → (401, 401, 1); and from the back corner (1, 1, 401) to
// (401, 401, 1), (799, 401, 1), (401, 799, 1) and (401, 401, 399): 9 of 49, partial (+2).
//
// tdgs gives no cover in melee, flying or not.
func TestCover_5_4_MeleeDownFromLedge(t *testing.T) {
	ledge := []engine.Obstacle{{X: 0, Y: 0, Z: 0}}
	for _, c := range []struct {
		name             string
		target           engine.Token
		flying           bool
		sources, targets int
		expect           gradeWant
	}{
		{"adjacent and down, standing", engine.Token{X: 1}, false, 4, 6, gradeWant{"none", 0, 0, 24}},
		{"diagonal and down, standing", engine.Token{X: 1, Y: 1}, false, 6, 7, gradeWant{"none", 0, 0, 42}},
		{"adjacent and down, flying", engine.Token{X: 1}, true, 6, 6, gradeWant{"cover", 4, 12, 36}},
		{"diagonal and down, flying", engine.Token{X: 1, Y: 1}, true, 7, 7, gradeWant{"partial", 2, 9, 49}},
	} {
		res := coverOf(t, engine.CoverRequest{Rules: "dnd35", Attack: "melee", Attacker: engine.Attacker{Z: 1, Flying: c.flying}, Target: c.target, Obstacles: ledge})
		checkGrade(t, c.name, res, c.expect)
		s := sources(res)
		if len(s) != c.sources || len(targetsOf(res)) != c.targets {
			t.Errorf("%s: %d source and %d target points, want %d and %d", c.name, len(s), len(targetsOf(res)), c.sources, c.targets)
		}
		for _, p := range s {
			if p[2] != 401 && p[2] != 799 {
				t.Errorf("%s: source point %v was adjusted (the target is not on the same level)", c.name, p)
			}
			if !c.flying && p[2] == 401 && (p[0] == 1 && p[1] == 1 || c.sources == 4 && p[0] == 1) {
				t.Errorf("%s: source point %v is on the bottom face only", c.name, p)
			}
		}
		res = coverOf(t, engine.CoverRequest{Attack: "melee", Attacker: engine.Attacker{Z: 1, Flying: c.flying}, Target: c.target, Obstacles: ledge})
		if res.Grade != "none" {
			t.Errorf("%s, tdgs: %s, want none (no cover in melee)", c.name, res.Grade)
		}
	}
	// Straight down, the bottom face is the only one turned toward the target: it is kept.
	res := coverOf(t, engine.CoverRequest{Rules: "dnd35", Attack: "melee", Attacker: engine.Attacker{Z: 1}, Target: engine.Token{}})
	if len(sources(res)) != 4 || res.Total != 16 {
		t.Errorf("straight down: %d sources, %d segments; want 4, 16", len(sources(res)), res.Total)
	}
}

// §5.4 ruling R2 leaves out only the ground under the attacker: other solids still block.
//
// A wall in front: the attacker stands on the ledge (0,0,0) in (0,0,1), the target is in
// (1,0,0) under a full block (1,0,1) (x ∈ [400, 800], z ∈ [400, 800]), in front of the
// attacker at its own level. 4 sources (399, ·, 401|799) × 6 targets (401, ·, 1|399),
// (799, ·, 399) = 24. A segment is blocked when it is above z = 400 where it crosses x = 400
// (it is then inside the block); at exactly 400 it touches the block's edge (400, ·, 400)
// and, the ledge left out, touches one solid only. From z = 401: to (401, ·, 1) z = 201 and to
// (401, ·, 399) z = 400 — clear; to (799, ·, 399) z = 400.995 — blocked (2 × 2 = 4). From
// z = 799: to (401, ·, 1) z = 400 — clear; to (401, ·, 399) z = 599 and to (799, ·, 399)
// z = 798 — blocked (2 × 4 = 8). 12 of 24, ½: dnd35 cover (+4). (Flying, the ledge counts:
// it and the block meet only along that edge, and the segments through it are blocked too.)
//
// A pit's rim that is not under the attacker: the same ledge, the target diagonal and down in
// (1,1,0), and a full block (1,0,0) beside it (x ∈ [400, 800], y ∈ [0, 400], z ∈ [0, 400]).
// 6 sources (east and south faces) × 7 targets (west, north and top faces) = 42. A segment
// from s to q is blocked when it is inside the block for a while: x > 400 after t_x, z < 400
// after t_z, y < 400 before t_y, so when max(t_x, t_z) < t_y; equality only touches the block's
// edge. Blocked: from (399, 1, 401) (t_y = 399/400) to (401, 401, 1), (799, 401, 1),
// (401, 401, 399) and (799, 401, 399) (max(t_x, t_z) = ½ or less); from (399, 1, 799) to
// (401, 401, 1) and (799, 401, 1) (t_z = 399/798 = ½); from (399, 399, 401) to (799, 401, 1)
// (t_y = ½ against 1/400). The segments to (401, 799, ·) and (799, 799, 399) leave y < 400
// first; (399, 399, 799) → (799, 401, 1) (t_z = t_y = ½) touches the block's top edge
// y = z = 400, (1, 399, ·) → (799, 401, 1) (t_x = t_y = ½) and (399, 399, ·) → (401, 401, ·)
// its edge x = y = 400. 7 of 42, ⅙: dnd35 partial (+2).
func TestCover_5_4_MeleeDownFromLedgeOtherSolidsBlock(t *testing.T) {
	res := coverOf(t, engine.CoverRequest{Rules: "dnd35", Attack: "melee", Attacker: engine.Attacker{Z: 1}, Target: engine.Token{X: 1},
		Obstacles: []engine.Obstacle{{}, {X: 1, Z: 1}}})
	checkGrade(t, "a wall in front", res, gradeWant{"cover", 4, 12, 24})
	res = coverOf(t, engine.CoverRequest{Rules: "dnd35", Attack: "melee", Attacker: engine.Attacker{Z: 1}, Target: engine.Token{X: 1, Y: 1},
		Obstacles: []engine.Obstacle{{}, {X: 1}}})
	checkGrade(t, "a rim beside the target", res, gradeWant{"partial", 2, 7, 42})
}

// §5.4 ruling R2 holds for every melee attack of a standing attacker: it matters whenever
// the target reaches below the attacker's feet, here a target two levels tall, (1,0,0) and
// (1,0,1), beside the ledge (0,0,0) the attacker stands on in (0,0,1). The target spans the
// attacker's level, so the attack counts as on the same level: the east face, adjusted,
// (399, ·, 521|779), against the target's west face, (401, ·, 1|399|401|799): 32 segments.
// Standing, nothing else is solid: 0 of 32, none. Flying, the ledge counts: the segments to
// (401, ·, 1) cross x = 400 at z = 261 (from 521) and 390 (from 779), inside the ledge; those
// to z = 399 cross at 460 and 589, above it: 2 × 2 × 2 = 8 of 32, ¼, partial (+2).
func TestCover_5_4_MeleeTallTargetBelowLedge(t *testing.T) {
	for _, c := range []struct {
		flying bool
		expect gradeWant
	}{{false, gradeWant{"none", 0, 0, 32}}, {true, gradeWant{"partial", 2, 8, 32}}} {
		res := coverOf(t, engine.CoverRequest{Rules: "dnd35", Attack: "melee", Attacker: engine.Attacker{Z: 1, Flying: c.flying},
			Target: engine.Token{X: 1, Height: 2}, Obstacles: []engine.Obstacle{{}}})
		checkGrade(t, "tall target, flying="+strconv.FormatBool(c.flying), res, c.expect)
	}
}

// §5.4 (seed 004: "If the attacker were in a cell 5 feet lower … the higher target would have
// cover"). The attacker is on the floor in (0,0,0); the target stands on a full block (1,0,0),
// in (1,0,1). Upward: no adjustment and nothing left out, flying or not. Source points: the
// attacker's east and top faces, 6; target points: its west and bottom faces, 6. Blocked:
// from the lower corners (399, ·, 1) to the four corners at z = 401 — they rise through the
// block (z < 400 over x > 400) — 2 × 4 = 8; from the upper east corners (399, ·, 399) to the
// far bottom corners (799, ·, 401) — z = 399 + 2·(x − 399)/400 stays below 400 until x = 599 —
// 2 × 2 = 4. The rest pass over the block or touch its edge (400, ·, 400). 12 of 36, f = ⅓:
// dnd35 cover (+4), the same for a flying attacker.
func TestCover_5_4_TargetOnHigherLedgeKeepsCover(t *testing.T) {
	for _, flying := range []bool{false, true} {
		res := coverOf(t, engine.CoverRequest{Rules: "dnd35", Attack: "melee", Attacker: engine.Attacker{Flying: flying},
			Target: engine.Token{X: 1, Z: 1}, Obstacles: []engine.Obstacle{{X: 1}}})
		checkGrade(t, "higher ledge", res, gradeWant{"cover", 4, 12, 36})
		if len(sources(res)) != 6 {
			t.Errorf("flying=%v: %d sources, want 6", flying, len(sources(res)))
		}
	}
}

// §5.7: an attacker of several cells attacks from the cell that leaves the least cover; ties
// go to the first cell in z, y, x order.
//
// Ranged: a Large attacker (size 2, height 2) at (0,0,0); the target (5,0,1), on level 1; a
// wall of full blocks at (3,0,0) and (3,1,0) topped by steps (fill 0.25: solid up to z = 500)
// at (3,0,1) and (3,1,1). From a level-0 cell every corner lies below the target's floor
// (z = 400): no boost, and the target shows its west and bottom faces, 6 points, 4 of them at
// z = 401; every segment to those crosses x ∈ [1200, 1600] at a height between 399 and 401,
// inside the block or its step: at least 4 of 6 ((0,0,0) alone leaves 4 of 6). From a
// level-1 cell the target shows its west face only, its low corners boosted to z = 521; the
// upper east corners clear the step — (399, ·, 799) to (2001, ·, 521) is at z ≈ 591 over
// x = 1600 — 0 of 4: the level-1 cells tie and (0,0,1) comes first.
//
// Melee: only the attacker's cells adjacent to the target count. A Large attacker of height 1
// at (0,0,0) against (2,0,0) with nothing around: (0,0,0) comes first in order but is not
// adjacent; (1,0,0) and (1,1,0) are, both 0 blocked: (1,0,0).
func TestCover_5_7_MultiCellAttacker(t *testing.T) {
	wall := []engine.Obstacle{{X: 3}, {X: 3, Y: 1}, {X: 3, Z: 1, Fill: 0.25}, {X: 3, Y: 1, Z: 1, Fill: 0.25}}
	res := coverOf(t, engine.CoverRequest{Rules: "dnd35", Attack: "ranged", Attacker: engine.Attacker{Size: 2}, Target: engine.Token{X: 5, Z: 1}, Obstacles: wall})
	checkGrade(t, "ranged, Large", res, gradeWant{"none", 0, 0, 4})
	if res.From != [3]int32{0, 0, 1} {
		t.Errorf("ranged, Large: from %v, want [0 0 1]", res.From)
	}
	one := coverOf(t, engine.CoverRequest{Rules: "dnd35", Attack: "ranged", Target: engine.Token{X: 5, Z: 1}, Obstacles: wall})
	checkGrade(t, "ranged, the cell (0,0,0) alone", one, gradeWant{"cover", 4, 4, 6})
	res = coverOf(t, engine.CoverRequest{Attack: "melee", Attacker: engine.Attacker{Size: 2, Height: 1}, Target: engine.Token{X: 2}})
	if res.From != [3]int32{1, 0, 0} || res.Total != 16 {
		t.Errorf("melee, Large: from %v (%d segments), want [1 0 0] (16)", res.From, res.Total)
	}
	// A low wall (fill 0.5: solid up to z = 200) in the attacker's own cell (1,0,0): from
	// there its lower corners (z = 121) lie inside the wall and its upper ones (379) reach the
	// target's low corners through it, 12 of 16. From (1,1,0) the target is diagonal, 6 × 6
	// segments; those that cross the wall's column low are blocked: from (401, 401, ·) and
	// (799, 401, ·) to (801, 1, ·) three each, from (401, 401, ·) to (801, 399, ·) two; the
	// rest pass over it or touch its edge x = 800, y = 400 — 8 of 36, the lesser: (1,1,0).
	res = coverOf(t, engine.CoverRequest{Attack: "melee", Attacker: engine.Attacker{Size: 2, Height: 1}, Target: engine.Token{X: 2},
		Obstacles: []engine.Obstacle{{X: 1, Fill: 0.5}}})
	if res.From != [3]int32{1, 1, 0} || res.Total != 36 || res.Blocked != 8 {
		t.Errorf("melee, Large, a wall in (1,0,0): from %v, %d/%d; want [1 1 0], 8/36", res.From, res.Blocked, res.Total)
	}
	res = coverOf(t, engine.CoverRequest{Attack: "melee", Attacker: engine.Attacker{X: 1}, Target: engine.Token{X: 2},
		Obstacles: []engine.Obstacle{{X: 1, Fill: 0.5}}})
	if res.Blocked != 12 || res.Total != 16 {
		t.Errorf("melee from (1,0,0) alone: %d/%d, want 12/16", res.Blocked, res.Total)
	}
}

// §5.5, §5.7: TDGS never grants cover in melee. The target (1,1,0) is diagonal to the
// attacker (0,0,0) between two full blocks (1,0,0) and (0,1,0) that meet only along the edge
// x = y = 400: every segment passes through a block or through that pinch, 36 of 36. tdgs:
// none all the same (and no line of effect); drawsteel full; dnd35 total.
func TestCover_5_7_TDGSMeleeNeverCover(t *testing.T) {
	pinch := []engine.Obstacle{{X: 1}, {Y: 1}}
	for _, c := range []struct {
		rules  engine.Rules
		expect gradeWant
	}{
		{"", gradeWant{"none", 0, 36, 36}},
		{"tdgs", gradeWant{"none", 0, 36, 36}},
		{"drawsteel", gradeWant{"full", 0, 36, 36}},
		{"dnd35", gradeWant{"total", 0, 36, 36}},
	} {
		res := coverOf(t, engine.CoverRequest{Rules: c.rules, Attack: "melee", Target: engine.Token{X: 1, Y: 1}, Obstacles: pinch})
		checkGrade(t, "pinch, "+string(c.rules), res, c.expect)
		if res.LineOfEffect {
			t.Errorf("pinch, %s: line of effect", c.rules)
		}
	}
	// The same rule sets at range: tdgs grades ranged attacks. A full wall (3,·,0) from y = −3
	// to 3 between (0,0,0) and (5,0,0): every segment crosses it, tdgs full.
	var wall []engine.Obstacle
	for y := -3; y <= 3; y++ {
		wall = append(wall, engine.Obstacle{X: 3, Y: y})
	}
	res := coverOf(t, engine.CoverRequest{Attack: "ranged", Target: engine.Token{X: 5}, Obstacles: wall})
	checkGrade(t, "wall, tdgs ranged", res, gradeWant{"full", 0, 4, 4})
}

// §5.2: entities never block. Tokens standing between the attacker and the target change
// nothing.
func TestCover_5_7_TokensNeverBlock(t *testing.T) {
	req := engine.CoverRequest{Rules: "dnd35", Attack: "ranged", Target: engine.Token{ID: "t", X: 4, Prone: true},
		Obstacles: []engine.Obstacle{{X: 3, Fill: 0.25}}}
	before := coverOf(t, req)
	req.Tokens = []engine.Token{{ID: "ogre", X: 1, Size: 2}, {ID: "wall of flesh", X: 3, Y: -1, Size: 3}}
	after := coverOf(t, req)
	if before.Grade != after.Grade || before.Blocked != after.Blocked || before.Total != after.Total {
		t.Errorf("tokens changed the answer: %+v → %+v", before, after)
	}
}

// Reach is judged as ranged (§5.4), at any distance from 1 on; ranged too.
func TestCover_5_7_ReachAndRangedAtAnyDistance(t *testing.T) {
	for _, target := range []engine.Token{{X: 1}, {X: 2, Y: 1}, {X: 10, Y: -3, Z: 2}, {X: 999999}} {
		obs := []engine.Obstacle{{X: 1, Y: 1, Fill: 0.5}, {X: 0, Y: 1}}
		r := coverOf(t, engine.CoverRequest{Attack: "reach", Target: target, Obstacles: obs})
		g := coverOf(t, engine.CoverRequest{Attack: "ranged", Target: target, Obstacles: obs})
		if r.Grade != g.Grade || r.Blocked != g.Blocked || r.Total != g.Total || !slices.Equal(r.Lines, g.Lines) {
			t.Errorf("target %+v: reach %+v differs from ranged %+v", target, r, g)
		}
	}
}

// The errors of a cover request: each names its field (CONTRACT cover; SPEC §5.7, §8.3).
func TestCover_5_7_Errors(t *testing.T) {
	ok := engine.CoverRequest{Attack: "melee", Target: engine.Token{X: 1}}
	cases := []struct {
		name string
		edit func(r *engine.CoverRequest)
		code engine.Code
		msg  string
	}{
		{"melee not adjacent", func(r *engine.CoverRequest) { r.Target.X = 3 }, engine.CodeOutOfRange, "target is 3 squares from the attacker; a melee attack needs adjacent spaces (distance 1)"},
		{"melee two levels down", func(r *engine.CoverRequest) { r.Attacker.Z = 2 }, engine.CodeOutOfRange, "target is 2 squares from the attacker"},
		{"melee, Large, not adjacent", func(r *engine.CoverRequest) { r.Attacker.Size = 2; r.Attacker.X = -2 }, engine.CodeOutOfRange, "target is 2 squares"},
		{"bad attack", func(r *engine.CoverRequest) { r.Attack = "slash" }, engine.CodeBadRequest, "attack: expected melee, reach or ranged, got \"slash\""},
		{"no attack", func(r *engine.CoverRequest) { r.Attack = "" }, engine.CodeBadRequest, "attack: expected melee, reach or ranged, got \"\""},
		{"bad rules", func(r *engine.CoverRequest) { r.Rules = "dnd4e" }, engine.CodeBadRequest, "rules: expected tdgs, drawsteel, dnd35, dnd5e or pf2e, got \"dnd4e\""},
		{"circle50 rules", func(r *engine.CoverRequest) { r.Rules = "circle50" }, engine.CodeBadRequest, "rules: expected tdgs, drawsteel, dnd35, dnd5e or pf2e"},
		{"attacker size", func(r *engine.CoverRequest) { r.Attacker.Size = 101 }, engine.CodeBadRequest, "attacker.size: expected 1 … 100, got 101"},
		{"attacker size name", func(r *engine.CoverRequest) { r.Attacker.SizeName = "Titanic" }, engine.CodeBadRequest, "attacker.size: unknown size \"Titanic\""},
		{"attacker facing", func(r *engine.CoverRequest) { r.Attacker.Facing = "up" }, engine.CodeBadRequest, "attacker.facing: expected one of N"},
		{"attacker coordinates", func(r *engine.CoverRequest) { r.Attacker.X = 1000001 }, engine.CodeTooLarge, "attacker: coordinates past ±1000000"},
		{"target height", func(r *engine.CoverRequest) { r.Target.Height = -1 }, engine.CodeBadRequest, "target.height: expected 1 … 100, got -1"},
		{"target coordinates", func(r *engine.CoverRequest) { r.Target.Z = -1000001 }, engine.CodeTooLarge, "target: coordinates past ±1000000"},
		{"same ids", func(r *engine.CoverRequest) { r.Attacker.ID, r.Target.ID = "x", "x" }, engine.CodeBadRequest, "target.id: \"x\" is also the attacker's id"},
		{"token without id", func(r *engine.CoverRequest) { r.Tokens = []engine.Token{{X: 5}} }, engine.CodeBadRequest, "tokens[0].id: every token needs an id"},
		{"token with the attacker's id", func(r *engine.CoverRequest) { r.Attacker.ID = "a"; r.Tokens = []engine.Token{{ID: "a"}} }, engine.CodeBadRequest, "tokens[0].id: \"a\" is also the attacker's id"},
		{"token with the target's id", func(r *engine.CoverRequest) { r.Target.ID = "t"; r.Tokens = []engine.Token{{ID: "u"}, {ID: "t"}} }, engine.CodeBadRequest, "tokens[1].id: \"t\" is also the target's id"},
		{"obstacle fill", func(r *engine.CoverRequest) { r.Obstacles = []engine.Obstacle{{X: 9, Fill: 1.5}} }, engine.CodeBadRequest, "obstacles[0].fill: expected a number in (0, 1], got 1.5"},
		{"obstacle far away", func(r *engine.CoverRequest) { r.Obstacles = []engine.Obstacle{{}, {X: 2000000}} }, engine.CodeTooLarge, "obstacles[1]: coordinates past"},
		{"overlapping", func(r *engine.CoverRequest) { r.Attacker.Size = 2 }, engine.CodeBadRequest, "target: its space overlaps the attacker's"},
		{"overlapping, ranged", func(r *engine.CoverRequest) { r.Attack = "ranged"; r.Target.X = 0 }, engine.CodeBadRequest, "target: its space overlaps the attacker's"},
		{"too large", func(r *engine.CoverRequest) {
			r.Attack, r.Attacker.Size, r.Target.X, r.Target.Size = "ranged", 100, 5000, 100
		}, engine.CodeTooLarge, "attacker: judging this attack's cover would cross more than"},
	}
	for _, c := range cases {
		req := ok
		req.Attacker, req.Target = ok.Attacker, ok.Target
		c.edit(&req)
		_, err := engine.Cover(&req)
		var e *engine.Error
		if !errors.As(err, &e) || e.Code != c.code || !strings.Contains(e.Message, c.msg) {
			t.Errorf("%s: %v, want %s containing %q", c.name, err, c.code, c.msg)
		}
	}
	if _, err := engine.Cover(nil); err == nil {
		t.Errorf("nil request accepted")
	}
	if _, err := engine.Cover(&ok); err != nil {
		t.Errorf("the base request: %v", err)
	}
}

// §8.3: the work bound leaves room for the sizes of play.
func TestCover_8_3_SizesOfPlayAccepted(t *testing.T) {
	wall := []engine.Obstacle{{X: 60, Y: 60, Z: 60, Fill: 0.5}}
	for _, c := range []struct {
		size int
		at   int
	}{{2, 997}, {4, 100}, {6, 1}} {
		// Corner-on (the most points) at distance `at` on every axis.
		d := c.size - 1 + c.at
		req := engine.CoverRequest{Attack: "ranged", Attacker: engine.Attacker{Size: c.size}, Target: engine.Token{X: d, Y: d, Z: d, Size: c.size}, Obstacles: wall}
		if _, err := engine.Cover(&req); err != nil {
			t.Errorf("size %d at %d: %v", c.size, c.at, err)
		}
	}
}

// CONTRACT cover: the result's field names on the wire.
func TestCover_Contract_JSON(t *testing.T) {
	res := coverOf(t, engine.CoverRequest{Rules: "dnd35", Attack: "ranged", Target: engine.Token{X: 4, Prone: true}, Obstacles: []engine.Obstacle{{X: 3, Fill: 0.25}}})
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"grade", "bonus", "blocked", "total", "lineOfEffect", "from", "lines"} {
		if _, ok := m[k]; !ok {
			t.Errorf("%s: no %q", b, k)
		}
	}
	if !strings.Contains(string(b), `"grade":"cover","bonus":4,"blocked":2,"total":4,"lineOfEffect":true,"from":[0,0,0],"lines":[{"from":[0.9975,0.0025,0.0025],"to":[4.0025,0.0025,0.0025],"blocked":true}`) {
		t.Errorf("result JSON %s", b)
	}
	var req engine.CoverRequest
	in := `{"rules":"dnd35","attack":"melee","attacker":{"id":"a","x":0,"y":0,"z":1,"flying":true},"target":{"id":"t","x":1,"y":0,"z":0,"prone":true},"obstacles":[{"x":0,"y":0,"z":0}]}`
	if err := json.Unmarshal([]byte(in), &req); err != nil {
		t.Fatal(err)
	}
	if !req.Attacker.Flying || req.Attacker.Z != 1 || !req.Target.Prone || req.Attack != "melee" {
		t.Errorf("request %s read as %+v", in, req)
	}
}

func sameSet(a, b [][3]int64) bool {
	if len(a) != len(b) {
		return false
	}
	for _, p := range a {
		if !slices.Contains(b, p) {
			return false
		}
	}
	return true
}
