package engine

import (
	"slices"
	"testing"
)

// The generator is SplitMix64 (Steele, Lea, Flood 2014). Its published reference sequence
// for seed 1234567 (prng.di.unimi.it/splitmix64.c; Rosetta Code "Pseudo-random numbers/
// Splitmix64") pins it on every platform (SPEC §8.1).
func TestRNG_7_4_SplitMix64Reference(t *testing.T) {
	g := &rng{s: 1234567}
	want := []uint64{6457827717110365317, 3203168211198807973, 9817491932198370423, 4593380528125082431, 16408922859458223821}
	for i, w := range want {
		if v := g.next(); v != w {
			t.Fatalf("output %d = %d, want %d", i, v, w)
		}
	}
}

// d20 is uniform over 1 … 20: every face shows, none other, counts near 1/20.
func TestRNG_7_4_D20(t *testing.T) {
	g := &rng{s: 99}
	var n [21]int
	const rolls = 200000
	for range rolls {
		d := g.d20()
		if d < 1 || d > 20 {
			t.Fatalf("d20 = %d", d)
		}
		n[d]++
	}
	for f := 1; f <= 20; f++ {
		if n[f] < rolls/20*9/10 || n[f] > rolls/20*11/10 {
			t.Errorf("face %d: %d of %d", f, n[f], rolls)
		}
	}
}

// dice is a die source that shows a fixed sequence.
type dice []int

func (d *dice) d20() int {
	v := (*d)[0]
	*d = (*d)[1:]
	return v
}

// §7.4 hit rule, one row per clause, through roll with stubbed dice. Attacker stat a, target
// defence d, cover bonus c, modifiers m, luck l; total = die + (a − (d + c)) + m.
func TestRoll_7_4_HitRule(t *testing.T) {
	cases := []struct {
		name          string
		dice          []int
		a, d, c, m, l int
		wantDice      []int
		total         int
		hit           bool
	}{
		{"natural 20 always hits", []int{20}, 0, 30, 4, -5, 0, []int{20}, -19, true},
		{"natural 20 hits with bad luck", []int{20}, 0, 30, 0, 0, -9, []int{20}, -10, true},
		{"natural 1 never hits", []int{1}, 40, 0, 0, 0, 0, []int{1}, 41, false},
		{"natural 1, luck 9: no reroll", []int{1, 20}, 40, 0, 0, 0, 9, []int{1}, 41, false},
		{"natural 1, luck 10: reroll, hits", []int{1, 15}, 5, 5, 0, 0, 10, []int{1, 15}, 15, true},
		{"natural 1, luck 10: reroll once only", []int{1, 1, 20}, 40, 0, 0, 0, 10, []int{1, 1}, 41, false},
		{"total 11 hits", []int{10}, 6, 3, 2, 0, 0, []int{10}, 11, true},
		{"total 10 misses", []int{10}, 5, 3, 2, 0, 0, []int{10}, 10, false},
		{"modifiers count", []int{10}, 5, 3, 2, 1, 0, []int{10}, 11, true},
		{"cover bonus raises the defence", []int{12}, 3, 3, 2, 0, 0, []int{12}, 10, false},
		{"luck −2: die 12 < 13 misses despite the total", []int{12}, 20, 0, 0, 0, -2, []int{12}, 32, false},
		{"luck −2: die 13 hits", []int{13}, 0, 0, 0, 0, -2, []int{13}, 13, true},
		{"luck −2: die 13 with a low total misses", []int{13}, 0, 5, 0, 0, -2, []int{13}, 8, false},
		{"luck +3: die 9 > 8 hits despite the total", []int{9}, 0, 30, 0, 0, 3, []int{9}, -21, true},
		{"luck +3: die 8 misses", []int{8}, 0, 30, 0, 0, 3, []int{8}, -22, false},
		{"luck +3: die 8 with a high total hits", []int{8}, 3, 0, 0, 0, 3, []int{8}, 11, true},
	}
	for _, c := range cases {
		src := dice(slices.Clone(c.dice))
		r := roll(&src, c.a, c.d, c.c, c.m, c.l)
		if !slices.Equal(r.Dice, c.wantDice) || r.Total != c.total || r.Hit != c.hit || r.Defence != c.d+c.c {
			t.Errorf("%s: %+v, want dice %v total %d defence %d hit %v", c.name, *r, c.wantDice, c.total, c.d+c.c, c.hit)
		}
	}
}

// Golden (CONTRACT evaluate example, without its illustrative origin and aim): caster hero
// at (5,5) facing N, Con4NE, g1 at (7,3) behind the block (6,3,0), resolve stat 7, seed 42,
// defence g1 5.
//
// Cover by hand: the source is (2200, 2200, 200); g1 spans [2800, 3200] × [1200, 1600] and
// shows its west and south faces: (2801, 1201), (2801, 1599), (3199, 1599) at z ∈ {121, 399}.
// The segments to (2801, 1201) cross the block from x ≈ 2561 on: blocked. The ones to
// (2801, 1599) run along x − 2200 = 2200 − y and pass exactly through the block's corner edge
// (2800, 1600), touching one solid only: clear. (3199, 1599) is clear. 2 of 6, f = ⅓:
// partial, +2 (the CONTRACT example says "partial", bonus 2).
//
// The roll: the first SplitMix64 output for seed 42 gives a d20 of 14 (the CONTRACT example
// shows dice [14]); total 14 + 7 − (5 + 2) + 0 = 14 ≥ 11: a hit against defence 7.
func TestGolden_7_4_ContractExample(t *testing.T) {
	req := func(seed uint64) *Request {
		return &Request{
			Rules:     "tdgs",
			Template:  TemplateRef{Text: "Con4NE"},
			Caster:    &Token{ID: "hero", X: 5, Y: 5, Size: 1, Height: 1, Facing: "N", Side: "party"},
			Range:     Range{Kind: "squares", Squares: 20},
			Tokens:    []Token{{ID: "g1", X: 7, Y: 3, Size: 1, Height: 1, Side: "enemy"}},
			Obstacles: []Obstacle{{X: 6, Y: 3, Fill: 1}},
			Bounds:    &Bounds{Min: [3]int{0, 0, 0}, Max: [3]int{59, 59, 0}},
			Resolve:   &Resolve{Stat: 7, Seed: seed, Defence: map[string]int{"g1": 5}},
		}
	}
	res := mustEvaluate(t, req(42))
	if res.Direction != "NE" || res.Origin != (Point{5, 5, 0}) || !res.OriginVisible || res.Count != 10 {
		t.Errorf("direction %s origin %v visible %v count %d, want NE (5,5,0) true 10", res.Direction, res.Origin, res.OriginVisible, res.Count)
	}
	if len(res.Targets) != 1 {
		t.Fatalf("targets %v, want g1", targetIDs(res))
	}
	g1 := res.Targets[0]
	checkTarget(t, g1, want{inArea: true, affected: true, cover: "partial", bonus: 2, blocked: 2, lines: 6})
	if r := g1.Roll; r == nil || !slices.Equal(r.Dice, []int{14}) || r.Total != 14 || r.Defence != 7 || !r.Hit {
		t.Errorf("roll %+v, want dice [14] total 14 defence 7 hit", r)
	}
	// The first d20 of seed 42, from the generator itself (pinned by the reference above).
	if d := (&rng{s: 42}).d20(); d != 14 {
		t.Errorf("first d20 of seed 42 = %d, want 14", d)
	}
}

// §7.4: same seed and request, same rolls; another seed, other dice. One die per affected
// target, in target order (the caster first).
func TestRolls_7_4_Seeded(t *testing.T) {
	s := parseScene(t, `
		abcde
		fgChi
		jklmn
	`)
	rolls := func(seed uint64) [][]int {
		req := s.request("Cir2h1")
		req.Origin = s.pos(t, 'C')
		req.Resolve = &Resolve{Stat: 5, Seed: seed}
		var out [][]int
		for _, tg := range mustEvaluate(t, req).Targets {
			out = append(out, tg.Roll.Dice)
		}
		return out
	}
	a, b, c := rolls(7), rolls(7), rolls(8)
	if len(a) != 15 {
		t.Fatalf("%d targets rolled, want 15 (the caster and 14 tokens)", len(a))
	}
	if !slices.EqualFunc(a, b, slices.Equal) {
		t.Errorf("same seed, different rolls: %v, %v", a, b)
	}
	if slices.EqualFunc(a, c, slices.Equal) {
		t.Errorf("seeds 7 and 8 gave the same 15 rolls: %v", a)
	}
	// The dice are the generator's d20s in target order.
	g := &rng{s: 7}
	for i, d := range a {
		if want := g.d20(); len(d) != 1 || d[0] != want {
			t.Errorf("target %d: dice %v, want [%d]", i, d, want)
		}
	}
	// No roll for a target that is not affected, and it draws no die.
	req := s.request("Cir2h1")
	req.Origin = s.pos(t, 'C')
	req.Targeting.ExcludeCaster = true
	req.Resolve = &Resolve{Stat: 5, Seed: 7}
	res := mustEvaluate(t, req)
	if res.Targets[0].Roll != nil || !slices.Equal(res.Targets[1].Roll.Dice, a[0]) {
		t.Errorf("excluded caster: roll %+v, first token's dice %v, want none and %v", res.Targets[0].Roll, res.Targets[1].Roll.Dice, a[0])
	}
}
