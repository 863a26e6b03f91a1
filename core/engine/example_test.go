package engine_test

import (
	"errors"
	"fmt"

	"github.com/aoekit/aoekit/core/engine"
)

// Parse reads TDGS, Draw Steel and 50 % circle notation (SPEC §2.2, §3.8, §4) and returns the
// canonical text with every default filled in; a notation error is an *engine.Error with the
// 1-based position where reading stopped.
func ExampleParse() {
	for _, text := range []string{"cir3", "Cir3h1", "Lin5Sw2", "3 куб в пределах 10", "close circle 3", "Con4"} {
		t, err := engine.Parse(text)
		if err != nil {
			var e *engine.Error
			if errors.As(err, &e) {
				fmt.Printf("error %s at %d: %s\n", e.Code, e.At, e.Message)
			}
			continue
		}
		fmt.Printf("%s → %s: %s %s", text, t.Notation, t.Rules, t.Shape)
		if t.Height > 0 {
			fmt.Printf(", height %d", t.Height)
		}
		fmt.Println()
	}
	// Output:
	// cir3 → Cir3: tdgs circle, height 3
	// Cir3h1 → Cir3h1: tdgs circle, height 1
	// Lin5Sw2 → Lin5Sw2: tdgs line, height 5
	// 3 куб в пределах 10 → 3 cube within 10: drawsteel cube
	// close circle 3 → close circle 3: circle50 circle
	// error bad_notation at 5: Con4: a cone needs a direction (N, NE, E, SE, S, SW, W, NW) at position 5
}

// A Cir2 on a 2-D board. Cir2 is 2 levels tall (SPEC §2.8: 50 cells, z 0 and 1); bounds with z
// from 0 to 0 keep the 25 cells of the map's level (SPEC §0). TDGS areas ignore obstacles
// (§2.1), so the block at (6, 5) is in the area; it gives cover (§5.5).
//
// Cover is judged from the centre of the origin cell, (5.5, 5.5, 0.5) — in 1/400 lattice units
// (2200, 2200, 200) (§5.1, §5.4). The orc at (6, 6) turns its west and north faces toward it:
// 6 inset corners, (2401, 2401), (2401, 2799) and (2799, 2401), each at z 121 (the low-point
// boost, 1 + 120) and 399. The two segments to (2799, 2401) cross x = 2400 at y ≈ 2267, inside
// the block (x 2400…2800, y 2000…2400): blocked. The segments to (2401, 2401) run along x = y
// and only touch the block's corner edge at (2400, 2400); those to (2401, 2799) pass south of
// it: clear. 2 of 6 blocked, f = ⅓: partial cover, +2 REF. The ally at (4, 4) shows its east
// and south faces; nothing lies between: 0 of 6, no cover. The caster (2, 5) and the wolf
// (9, 5) are outside the area and are not listed.
func ExampleEvaluate() {
	req := &engine.Request{
		Template: engine.TemplateRef{Text: "Cir2"},
		Caster:   &engine.Token{ID: "hero", X: 2, Y: 5, Side: "party"},
		Origin:   &engine.Pos{X: 5, Y: 5, Z: 0},
		Range:    engine.Range{Kind: "squares", Squares: 10},
		Tokens: []engine.Token{
			{ID: "orc", X: 6, Y: 6, Side: "enemy"},
			{ID: "ally", X: 4, Y: 4, Side: "party"},
			{ID: "wolf", X: 9, Y: 5, Side: "enemy"},
		},
		Obstacles: []engine.Obstacle{{X: 6, Y: 5, Z: 0, Fill: 1}},
		Bounds:    &engine.Bounds{Min: [3]int{0, 0, 0}, Max: [3]int{9, 9, 0}},
	}
	res, err := engine.Evaluate(req)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("cells:", res.Count, "origin visible:", res.OriginVisible)

	// The board, rows 2 … 8: * area, @ origin, O obstacle, tokens by initial.
	in := map[[3]int32]bool{}
	for _, c := range res.Cells {
		in[c] = true
	}
	for y := 2; y <= 8; y++ {
		row := []byte("..........")
		for x := range row {
			if in[[3]int32{int32(x), int32(y), 0}] {
				row[x] = '*'
			}
		}
		if y == req.Origin.Y {
			row[req.Origin.X] = '@'
		}
		for _, o := range req.Obstacles {
			if o.Y == y {
				row[o.X] = 'O'
			}
		}
		for _, t := range append([]engine.Token{*req.Caster}, req.Tokens...) {
			if t.Y == y {
				row[t.X] = t.ID[0]
			}
		}
		fmt.Println(string(row))
	}

	for _, t := range res.Targets {
		fmt.Printf("%s: affected %v, cover %s (+%d), %d of %d lines blocked\n",
			t.ID, t.Affected, t.Cover, t.Bonus, t.Blocked, len(t.Lines))
	}
	// Output:
	// cells: 25 origin visible: true
	// ..........
	// ...*****..
	// ...*a***..
	// ..h**@O*.w
	// ...***o*..
	// ...*****..
	// ..........
	// orc: affected true, cover partial (+2), 2 of 6 lines blocked
	// ally: affected true, cover none (+0), 0 of 6 lines blocked
}

// Forced movement (SPEC §3.7). A push 3 squares east from (5, 5): the orc at (6, 5) enters
// (7, 5), then stops before the step at (8, 5) — any obstacle stops a forced move, even a
// 0.3 fill — with 3 − 1 = 2 squares left. A pull without a path follows the digital straight
// line of §3.5 back toward the source and stops beside it, without a collision: from (6, 3)
// toward (0, 0) the rows round to 2, 2, 1, 1, 0.
func ExampleMove() {
	push, err := engine.Move(&engine.MoveRequest{
		Kind:      "push",
		Distance:  3,
		Source:    engine.Pos{X: 5, Y: 5},
		Target:    "orc",
		Tokens:    []engine.Token{{ID: "orc", X: 6, Y: 5}},
		Obstacles: []engine.Obstacle{{X: 8, Y: 5, Fill: 0.3}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("push: path", push.Path, "end", push.End)
	if c := push.Collision; c != nil {
		fmt.Println("push: stopped by", c.With, "at", c.At, "with", c.Left, "squares left")
	}

	pull, err := engine.Move(&engine.MoveRequest{
		Kind:     "pull",
		Distance: 10,
		Source:   engine.Pos{X: 0, Y: 0},
		Target:   "orc",
		Tokens:   []engine.Token{{ID: "orc", X: 6, Y: 3}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("pull: path", pull.Path, "end", pull.End, "collision", pull.Collision)
	// Output:
	// push: path [[7 5 0]] end {7 5 0}
	// push: stopped by obstacle at [8 5 0] with 2 squares left
	// pull: path [[5 2 0] [4 2 0] [3 1 0] [2 1 0] [1 0 0]] end {1 0 0} collision <nil>
}

// A point-origin area (SPEC §10): a D&D 5e fireball placed on a grid intersection covers the 52
// squares whose centres lie within 20 feet; a wall keeps it from those behind, and a creature in
// the way gives the one behind it half cover.
func ExampleEvaluate_fireball() {
	res, err := engine.Evaluate(&engine.Request{
		Rules:    engine.RulesDnD5e,
		Template: engine.TemplateRef{Text: "20-foot-radius sphere"},
		Point:    &engine.Point{X: 10, Y: 6, Z: 0},
		Tokens: []engine.Token{
			{ID: "ogre", X: 11, Y: 6, Size: 2, Side: "enemy"},
			{ID: "goblin", X: 13, Y: 7, Side: "enemy"},
			{ID: "bugbear", X: 7, Y: 3, Side: "enemy"},
		},
		Walls:  []engine.Wall{{A: [2]float64{8, 2}, B: [2]float64{8, 5}}},
		Bounds: &engine.Bounds{Min: [3]int{0, 0, 0}, Max: [3]int{29, 19, 0}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Count, "squares")
	for _, t := range res.Targets {
		fmt.Printf("%s: affected %v, cover %s +%d", t.ID, t.Affected, t.Cover, t.Bonus)
		if t.Reason != "" {
			fmt.Printf(" (%s)", t.Reason)
		}
		fmt.Println()
	}
	// Output:
	// 50 squares
	// ogre: affected true, cover none +0
	// goblin: affected true, cover half +2
	// bugbear: affected false, cover none +0 (barrier)
}
