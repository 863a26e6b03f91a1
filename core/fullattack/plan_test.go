package fullattack_test

import (
	"strconv"
	"strings"
	"testing"

	fa "github.com/aoekit/aoekit/core/fullattack"
)

// SPEC §9.3: the SRD's base attack bonus column (e.g. the fighter's class table, levels 1–20,
// and a level-1 wizard's +0), copied as printed. Past 20, SPEC §9.3's cap of four attacks.
func TestIterative_9_3(t *testing.T) {
	srd := []string{
		"+0", "+1", "+2", "+3", "+4", "+5",
		"+6/+1", "+7/+2", "+8/+3", "+9/+4", "+10/+5",
		"+11/+6/+1", "+12/+7/+2", "+13/+8/+3", "+14/+9/+4", "+15/+10/+5",
		"+16/+11/+6/+1", "+17/+12/+7/+2", "+18/+13/+8/+3", "+19/+14/+9/+4", "+20/+15/+10/+5",
	}
	epic := map[int]string{21: "+21/+16/+11/+6", 25: "+25/+20/+15/+10", 40: "+40/+35/+30/+25"}
	for bab := 0; bab <= 40; bab++ {
		want, ok := epic[bab]
		if bab < len(srd) {
			want, ok = srd[bab], true
		}
		if !ok {
			continue
		}
		n := strings.Count(want, "/") + 1
		// Attack until the sequence is spent: n priced attacks, then no_attack_left at n.
		req := &fa.Request{BAB: bab, Hands: []string{"main"}, Holding: map[string]fa.Item{"main": longsword}}
		for range n {
			req.Steps = append(req.Steps, atk("main"))
		}
		res := mustPlan(t, req)
		var got []string
		for _, s := range res.Steps {
			if s.As != fa.AsPrimary || s.Parts.TwoWeapon != 0 || s.Parts.RapidShot != 0 {
				t.Errorf("bab %d: %+v is not a plain primary attack", bab, s)
			}
			got = append(got, signed(*s.Bonus))
		}
		if strings.Join(got, "/") != want {
			t.Errorf("bab %d: %s, want %s (SRD)", bab, strings.Join(got, "/"), want)
		}
		if len(res.Next) != 0 {
			t.Errorf("bab %d: after the sequence, next is %+v", bab, res.Next)
		}
		req.Steps = append(req.Steps, atk("main"))
		wantError(t, req, fa.CodeNoAttackLeft, n)
	}
}

// SPEC §9.3: without twoWeapon every weapon attack, from any hand, takes the primary sequence's
// next bonus; an unarmed strike is a weapon attack.
func TestPrimaryAnyHand_9_3(t *testing.T) {
	req := &fa.Request{BAB: 11, Holding: map[string]fa.Item{"main": longsword, "off": shortsword},
		Steps: []fa.Step{atk("off"), atk("main"), drop("off"), atk("off")}}
	// +11, +6, then the empty off hand's unarmed strike at +1.
	wantPrices(t, prices(t, req), "+11 primary", "+6 primary", "-", "+1 primary")
	if res := mustPlan(t, req); res.Steps[3].With != fa.Unarmed {
		t.Errorf("an empty hand's attack is with %q, want %q", res.Steps[3].With, fa.Unarmed)
	}
	req.Steps = append(req.Steps, atk("main"))
	wantError(t, req, fa.CodeNoAttackLeft, 4)
}

// SPEC §9.4, the SRD's Two-Weapon Fighting Penalties table, row by row: BAB +6, one attack of
// each sequence, at +6 + the penalty.
func TestTwoWeaponTable_9_4(t *testing.T) {
	for _, row := range []struct {
		name      string
		feat      bool
		off       fa.Item
		main, alt int // the SRD's primary-hand and off-hand penalties
	}{
		{"normal", false, longsword, -6, -10},
		{"off-hand weapon light", false, shortsword, -4, -8},
		{"Two-Weapon Fighting feat", true, longsword, -4, -4},
		{"off-hand weapon light and Two-Weapon Fighting feat", true, shortsword, -2, -2},
	} {
		t.Run(row.name, func(t *testing.T) {
			req := &fa.Request{BAB: 6, TwoWeapon: true,
				Holding: map[string]fa.Item{"main": longsword, "off": row.off},
				Steps:   []fa.Step{atk("main"), atk("off"), atk("main")}}
			if row.feat {
				req.Feats = feats(fa.FeatTwoWeaponFighting)
			}
			res := mustPlan(t, req)
			for i, want := range []struct {
				as          fa.As
				seq, twoWpn int
			}{{fa.AsPrimary, 6, row.main}, {fa.AsOff, 6, row.alt}, {fa.AsPrimary, 1, row.main}} {
				s := res.Steps[i]
				if s.As != want.as || s.Parts.Sequence != want.seq || s.Parts.TwoWeapon != want.twoWpn || *s.Bonus != want.seq+want.twoWpn {
					t.Errorf("step %d: %s %+d %+v, want %s %+d with penalty %d", i, s.As, *s.Bonus, *s.Parts, want.as, want.seq+want.twoWpn, want.twoWpn)
				}
			}
			// Without twoWeapon the same plan has no penalty and the off hand's attack is the
			// primary sequence's second: +6, +1, then nothing left.
			req.TwoWeapon = false
			req.Steps = req.Steps[:2]
			wantPrices(t, prices(t, req), "+6 primary", "+1 primary")
		})
	}
}

// SPEC §9.4 [ruling]: "light" is judged by the first off hand: empty (an unarmed strike), a light
// weapon, a light shield or a double weapon count as light; a heavy shield or a one-handed
// weapon do not. Judged with the feat: light −2/−2, else −4/−4; without it −4/−8 or −6/−10.
func TestLightOffHand_9_4(t *testing.T) {
	for _, tt := range []struct {
		name  string
		off   *fa.Item
		light bool
	}{
		{"empty", nil, true},
		{"light weapon", &shortsword, true},
		{"light shield", &buckler, true},
		{"heavy shield", &heavyShield, false},
		{"one-handed", &longsword, false},
	} {
		for _, feat := range []bool{false, true} {
			req := &fa.Request{BAB: 1, TwoWeapon: true, Holding: map[string]fa.Item{"main": longsword},
				Steps: []fa.Step{atk("main"), atk("off")}}
			if tt.off != nil {
				req.Holding["off"] = *tt.off
			}
			if feat {
				req.Feats = feats(fa.FeatTwoWeaponFighting)
			}
			want := map[[2]bool][2]int{{false, false}: {-6, -10}, {false, true}: {-4, -8}, {true, false}: {-4, -4}, {true, true}: {-2, -2}}[[2]bool{feat, tt.light}]
			// The shield bash, the unarmed strike, the sword: each an off-hand attack at +1.
			wantPrices(t, prices(t, req), signed(1+want[0])+" primary", signed(1+want[1])+" off")
		}
	}
	// A double weapon in the hands: light (SRD: "a double weapon ... as if ... a light weapon").
	req := &fa.Request{BAB: 1, TwoWeapon: true, Holding: map[string]fa.Item{"main": staff, "off": staff},
		Steps: []fa.Step{head("main", 1), head("main", 2)}}
	wantPrices(t, prices(t, req), "-3 primary", "-7 off")
}

// SPEC §9.4: the pair is judged once, at the first attack, and holds whatever is dropped or
// drawn afterwards.
func TestJudgedOnce_9_4(t *testing.T) {
	req := &fa.Request{BAB: 6, TwoWeapon: true, Feats: feats(fa.FeatQuickDraw),
		Holding: map[string]fa.Item{"main": longsword, "off": shortsword},
		Steps:   []fa.Step{atk("main"), drop("off"), draw("off", longsword), atk("off")}}
	// Light at the first attack: −4/−8, though the off hand then holds a longsword.
	wantPrices(t, prices(t, req), "+2 primary", "-", "-", "-2 off")
	// The other way: a longsword at first (−6/−10), a dagger when the off hand attacks.
	req.Holding["off"] = longsword
	req.Steps = []fa.Step{atk("main"), drop("off"), draw("off", dagger), atk("off")}
	wantPrices(t, prices(t, req), "+0 primary", "-", "-", "-4 off")
	// A drop before the first attack counts: the empty off hand is light.
	req.Steps = []fa.Step{drop("off"), atk("main"), atk("off")}
	wantPrices(t, prices(t, req), "-", "+2 primary", "-2 off")
}

// SPEC §9.4: Improved Two-Weapon Fighting gives the off hand a second attack at bab−5, Greater a
// third at bab−10 (SRD), Greater implying Improved; the sequences are separate budgets.
func TestImprovedGreater_9_4(t *testing.T) {
	hold := map[string]fa.Item{"main": longsword, "off": shortsword}
	// BAB +16, light off hand and the feat: −2 everywhere. Primary +16/+11/+6/+1, off +16/+11/+6.
	req := &fa.Request{BAB: 16, TwoWeapon: true, Holding: hold,
		Feats: feats(fa.FeatTwoWeaponFighting, fa.FeatImprovedTwoWeaponFighting, fa.FeatGreaterTwoWeaponFighting),
		Steps: []fa.Step{atk("main"), atk("off"), atk("main"), atk("off"), atk("main"), atk("off"), atk("main")}}
	wantPrices(t, prices(t, req), "+14 primary", "+14 off", "+9 primary", "+9 off", "+4 primary", "+4 off", "-1 primary")
	wantError(t, &fa.Request{BAB: 16, TwoWeapon: true, Holding: hold, Feats: req.Feats, Steps: append(req.Steps[:7:7], atk("off"))}, fa.CodeNoAttackLeft, 7)
	// Greater alone implies the rest.
	req.Feats = feats(fa.FeatGreaterTwoWeaponFighting)
	wantPrices(t, prices(t, req), "+14 primary", "+14 off", "+9 primary", "+9 off", "+4 primary", "+4 off", "-1 primary")

	// Improved only, BAB +11: off +11/+6, then spent though the primary sequence has +1 left.
	req = &fa.Request{BAB: 11, TwoWeapon: true, Holding: hold, Feats: feats(fa.FeatImprovedTwoWeaponFighting),
		Steps: []fa.Step{atk("off"), atk("off"), atk("main")}}
	wantPrices(t, prices(t, req), "+9 off", "+4 off", "+9 primary")
	req.Steps = append(req.Steps, atk("off"))
	wantError(t, req, fa.CodeNoAttackLeft, 3)

	// Without a feat past the first: one off-hand attack.
	req = &fa.Request{BAB: 11, TwoWeapon: true, Holding: hold, Feats: feats(fa.FeatTwoWeaponFighting),
		Steps: []fa.Step{atk("off"), atk("off")}}
	wantError(t, req, fa.CodeNoAttackLeft, 1)
}

// SPEC §9.4: each off hand has a sequence of its own (SRD: one extra attack with each extra
// weapon); the penalties are judged by the first off hand.
func TestFourArms_9_4(t *testing.T) {
	req := &fa.Request{BAB: 6, TwoWeapon: true, Feats: feats(fa.FeatTwoWeaponFighting),
		Hands:   []string{"r1", "l1", "r2", "l2"},
		Holding: map[string]fa.Item{"r1": longsword, "l1": shortsword, "r2": longsword, "l2": dagger},
		Steps:   []fa.Step{atk("r1"), atk("l1"), atk("r2"), atk("l2"), atk("r1")}}
	// l1 is light: −2/−2. r1 primary +6, each off hand +6, then r1 +1.
	wantPrices(t, prices(t, req), "+4 primary", "+4 off", "+4 off", "+4 off", "-1 primary")
	req.Steps = append(req.Steps, atk("r2"))
	wantError(t, req, fa.CodeNoAttackLeft, 5)
}

// SPEC §9.3–§9.4: a double weapon. With twoWeapon its first head is primary, its second an
// off-hand attack; without, both heads take the primary sequence. Either hand names it.
func TestDoubleWeapon_9_4(t *testing.T) {
	req := &fa.Request{BAB: 11, TwoWeapon: true, Feats: feats(fa.FeatTwoWeaponFighting),
		Holding: map[string]fa.Item{"main": staff, "off": staff},
		Steps:   []fa.Step{head("main", 1), head("off", 2), head("off", 1), head("main", 1)}}
	// −2/−2 (light: double). Primary +11, off +11, primary +6, primary +1.
	wantPrices(t, prices(t, req), "+9 primary", "+9 off", "+4 primary", "-1 primary")
	req.Steps = append(req.Steps, head("main", 2))
	wantError(t, req, fa.CodeNoAttackLeft, 4)

	req = &fa.Request{BAB: 11, Holding: map[string]fa.Item{"main": staff, "off": staff},
		Steps: []fa.Step{head("main", 2), head("main", 1), head("off", 2)}}
	wantPrices(t, prices(t, req), "+11 primary", "+6 primary", "+1 primary")

	// next lists both heads once, under the first hand.
	req = &fa.Request{BAB: 6, TwoWeapon: true, Holding: map[string]fa.Item{"main": staff, "off": staff}}
	wantPrices(t, nextPrices(t, req), "main/1 +2 primary", "main/2 -2 off")

	// head is required with a double weapon and refused without one.
	wantError(t, &fa.Request{BAB: 1, Holding: map[string]fa.Item{"main": staff, "off": staff}, Steps: []fa.Step{atk("main")}}, fa.CodeBadRequest, 0)
	wantError(t, &fa.Request{BAB: 1, Holding: map[string]fa.Item{"main": staff, "off": staff}, Steps: []fa.Step{head("main", 3)}}, fa.CodeBadRequest, 0)
	wantError(t, &fa.Request{BAB: 1, Holding: map[string]fa.Item{"main": longsword}, Steps: []fa.Step{head("main", 1)}}, fa.CodeBadRequest, 0)
}

// SPEC §9.3: a two-handed weapon names either hand and is always a primary-sequence attack,
// with the primary-hand penalty.
func TestTwoHanded_9_3(t *testing.T) {
	req := &fa.Request{BAB: 6, TwoWeapon: true, Holding: map[string]fa.Item{"main": greatsword, "off": greatsword},
		Steps: []fa.Step{atk("off"), atk("main")}}
	// The off hand holds a two-handed weapon (not light), no feat: −6/−10; primary +6, +1.
	wantPrices(t, prices(t, req), "+0 primary", "-5 primary")
	req.Steps = append(req.Steps, atk("off"))
	wantError(t, req, fa.CodeNoAttackLeft, 2)
	// next: the greatsword once, under main.
	req.Steps = req.Steps[:1]
	wantPrices(t, nextPrices(t, req), "main -5 primary")
}

// SPEC §9.5 (a), written out. BAB +11, Two-Weapon Fighting and Quick Draw, a longsword in the
// main hand and a dagger (light) in the off hand; twoWeapon declared. Judged at the first attack:
// light and the feat, −2/−2. Primary sequence +11/+6/+1, off-hand sequence +11.
//
//	0 attack main (longsword):  primary #1, 11 − 2 = +9
//	1 attack off (dagger):      off #1,     11 − 2 = +9
//	2 drop main, 3 drop off, 4 draw greatsword into [main, off] (Quick Draw)
//	5 attack off (greatsword):  primary #2,  6 − 2 = +4  — the primary sequence's next bonus
//	6 attack main (greatsword): primary #3,  1 − 2 = −1
//	7 attack main:              no_attack_left
func TestSeedA_9_5(t *testing.T) {
	req := &fa.Request{BAB: 11, TwoWeapon: true, Feats: feats(fa.FeatTwoWeaponFighting, fa.FeatQuickDraw),
		Holding: map[string]fa.Item{"main": longsword, "off": dagger},
		Steps: []fa.Step{atk("main"), atk("off"), drop("main"), drop("off"),
			draw2("main", "off", greatsword), atk("off"), atk("main")}}
	wantPrices(t, prices(t, req), "+9 primary", "+9 off", "-", "-", "-", "+4 primary", "-1 primary")
	res := mustPlan(t, req)
	if res.Steps[5].With != "greatsword" || res.Steps[5].Parts.TwoWeapon != -2 {
		t.Errorf("step 5: %+v %+v, want the greatsword with the primary-hand penalty −2", res.Steps[5], *res.Steps[5].Parts)
	}
	if len(res.Next) != 0 {
		t.Errorf("next: %+v, want nothing (both budgets spent)", res.Next)
	}
	req.Steps = append(req.Steps, atk("main"))
	wantError(t, req, fa.CodeNoAttackLeft, 7)
}

// SPEC §9.5 (b), written out. As (a), but the off hand has not attacked:
//
//	0 attack main (longsword):  primary #1, 11 − 2 = +9
//	1 drop main, 2 drop off, 3 draw greatsword into [main, off]
//	4 attack main (greatsword): primary #2,  6 − 2 = +4
//	5 attack off (greatsword):  primary #3,  1 − 2 = −1 — still primary: a two-handed weapon
//	6 drop main (frees both hands), 7 draw dagger into off
//	8 attack off (dagger):      off #1,     11 − 2 = +9 — the greatsword used none of its budget
//	9 attack off:               no_attack_left
func TestSeedB_9_5(t *testing.T) {
	req := &fa.Request{BAB: 11, TwoWeapon: true, Feats: feats(fa.FeatTwoWeaponFighting, fa.FeatQuickDraw),
		Holding: map[string]fa.Item{"main": longsword, "off": dagger},
		Steps: []fa.Step{atk("main"), drop("main"), drop("off"), draw2("main", "off", greatsword),
			atk("main"), atk("off"), drop("main"), draw("off", dagger), atk("off")}}
	wantPrices(t, prices(t, req), "+9 primary", "-", "-", "-", "+4 primary", "-1 primary", "-", "-", "+9 off")
	req.Steps = append(req.Steps, atk("off"))
	wantError(t, req, fa.CodeNoAttackLeft, 9)
}

// SPEC §9.5 (c): an exhausted hand keeps its place; only budgets run out. A spent off hand stays
// spent with a new weapon, and a two-handed weapon held in it still attacks from the primary
// sequence.
func TestSeedC_9_5(t *testing.T) {
	req := &fa.Request{BAB: 6, TwoWeapon: true, Feats: feats(fa.FeatTwoWeaponFighting, fa.FeatQuickDraw),
		Holding: map[string]fa.Item{"main": longsword, "off": shortsword},
		Steps:   []fa.Step{atk("off"), drop("off"), draw("off", dagger), atk("off")}}
	wantError(t, req, fa.CodeNoAttackLeft, 3)
	req.Steps = []fa.Step{atk("off"), drop("off"), drop("main"), draw2("off", "main", greatsword), atk("off"), atk("main")}
	// −2/−2; off #1 +6 − 2; greatsword primary #1 +6 − 2 and #2 +1 − 2.
	wantPrices(t, prices(t, req), "+4 off", "-", "-", "-", "+4 primary", "-1 primary")
}

// SPEC §9.6: Rapid Shot with a bow. BAB +6: sequence +6/+1, one extra attack at +6; −2 on all.
// The extra attack stays available after the sequence is spent, and comes once.
func TestRapidShotBow_9_6(t *testing.T) {
	base := func(steps ...fa.Step) *fa.Request {
		return &fa.Request{BAB: 6, RapidShot: true, Feats: feats(fa.FeatRapidShot),
			Holding: map[string]fa.Item{"main": longbow, "off": longbow}, Steps: steps}
	}
	wantPrices(t, prices(t, base(extra("main"), atk("main"), atk("off"))), "+4 extra", "+4 primary", "-1 primary")
	wantPrices(t, prices(t, base(atk("main"), atk("main"), extra("off"))), "+4 primary", "-1 primary", "+4 extra")
	res := mustPlan(t, base(atk("main"), atk("main"), extra("off")))
	if p := res.Steps[2].Parts; p.Sequence != 6 || p.RapidShot != -2 || p.TwoWeapon != 0 {
		t.Errorf("extra attack parts %+v, want sequence 6 (bab), rapidShot −2", *p)
	}
	if res.Steps[0].Throw || res.Steps[2].With != "longbow" {
		t.Errorf("the bow shoots and stays: %+v", res.Steps)
	}
	wantPrices(t, nextPrices(t, base(atk("main"))), "main -1 primary", "main extra +4 extra")
	wantPrices(t, nextPrices(t, base(atk("main"), extra("main"))), "main -1 primary")
	wantError(t, base(extra("main"), extra("main")), fa.CodeNoAttackLeft, 1)
	// Without the declaration, no extra attack: not_declared; and no −2.
	req := base(atk("main"), extra("main"))
	req.RapidShot = false
	wantError(t, req, fa.CodeNotDeclared, 1)
	req.Steps = req.Steps[:1]
	wantPrices(t, prices(t, req), "+6 primary")
	// A projectile weapon is shot, never thrown.
	wantError(t, base(fa.Step{Attack: "main", Extra: true, Throw: true}), fa.CodeNotRanged, 0)
	// A melee weapon cannot make the extra attack.
	req = base(atk("main"), extra("main"))
	req.Holding = map[string]fa.Item{"main": longsword}
	wantError(t, req, fa.CodeNotRanged, 1)
}

// SPEC §9.6: Rapid Shot with thrown daggers and Quick Draw (SRD Quick Draw: thrown weapons at
// the full rate). BAB +6. A throw empties the hand; a dagger is drawn for each.
func TestRapidShotThrown_9_6(t *testing.T) {
	req := &fa.Request{BAB: 6, RapidShot: true, Feats: feats(fa.FeatRapidShot, fa.FeatQuickDraw),
		Holding: map[string]fa.Item{"main": dagger},
		Steps: []fa.Step{throwAt("main"), draw("main", dagger), throwAt("main"), draw("main", dagger),
			extraThrow("main")}}
	// +6 − 2, +1 − 2, then the extra attack at +6 − 2 after the sequence is spent.
	wantPrices(t, prices(t, req), "+4 primary", "-", "-1 primary", "-", "+4 extra")
	res := mustPlan(t, req)
	// The dagger is gone: the empty hand's unarmed strike has no budget left.
	if len(res.Next) != 0 {
		t.Errorf("next: %+v, want nothing", res.Next)
	}
	// Thrown, the hand is empty: a further attack is an unarmed strike (no budget: spent).
	req.Steps = append(req.Steps, atk("main"))
	wantError(t, req, fa.CodeNoAttackLeft, 5)
	// The extra attack must throw a thrown weapon.
	req.Steps = []fa.Step{extra("main")}
	wantError(t, req, fa.CodeNotRanged, 0)
	// A thrown weapon may strike in melee.
	req.Steps = []fa.Step{atk("main"), atk("main")}
	wantPrices(t, prices(t, req), "+4 primary", "-1 primary")
	// After a throw the hand is empty: throwing again needs a draw.
	req.Steps = []fa.Step{throwAt("main"), throwAt("main")}
	wantError(t, req, fa.CodeNotRanged, 1)
	// No Quick Draw: no draw.
	req.Feats = feats(fa.FeatRapidShot)
	req.Steps = []fa.Step{throwAt("main"), draw("main", dagger)}
	wantError(t, req, fa.CodeNeedsQuickDraw, 1)
	// next with a dagger in hand: the melee strike, then the extra throw; the empty off hand's
	// unarmed strike.
	req.Steps = nil
	wantPrices(t, nextPrices(t, req), "main +4 primary", "main extra +4 extra", "off +4 primary")
}

// SPEC §9.6: the extra attack takes the two-weapon penalty of the hand that makes it, and Rapid
// Shot's −2 falls on every attack, natural ones included.
func TestRapidShotTwoWeapon_9_6(t *testing.T) {
	req := &fa.Request{BAB: 6, TwoWeapon: true, RapidShot: true,
		Feats:   feats(fa.FeatTwoWeaponFighting, fa.FeatRapidShot),
		Holding: map[string]fa.Item{"main": handxbow, "off": handxbow},
		Natural: []fa.Natural{{ID: "tail", Primary: true}},
		Steps:   []fa.Step{extra("off"), atk("main"), atk("off"), nat("tail")}}
	// −2/−2 (light, feat) and −2 Rapid Shot: extra 6−2−2, primary 6−2−2, off 6−2−2, the tail
	// secondary 6−5−2.
	wantPrices(t, prices(t, req), "+2 extra", "+2 primary", "+2 off", "-1 natural secondary")
	res := mustPlan(t, req)
	if p := res.Steps[0].Parts; p.TwoWeapon != -2 || p.RapidShot != -2 || p.Sequence != 6 {
		t.Errorf("extra: %+v", *p)
	}
	if p := res.Steps[3].Parts; p.TwoWeapon != 0 || p.RapidShot != -2 || p.Natural != -5 {
		t.Errorf("natural: %+v", *p)
	}
	// Without the feat: −4/−8 by the light hand crossbow; the extra from the off hand −8.
	req.Feats = feats(fa.FeatRapidShot)
	req.Steps = []fa.Step{extra("off"), extra("main")}
	wantError(t, req, fa.CodeNoAttackLeft, 1)
	req.Steps = req.Steps[:1]
	wantPrices(t, prices(t, req), "-4 extra")
	req.Steps = []fa.Step{extra("main")}
	wantPrices(t, prices(t, req), "+0 extra")
	// Declaring Rapid Shot without the feat: bad_request, not about a step.
	req.Feats = nil
	wantError(t, req, fa.CodeBadRequest, -1)
}

// SPEC §9.7: natural weapons alone. BAB +6: primary at +6, secondary at +1 (+4 with
// Multiattack); each once.
func TestNaturalAlone_9_7(t *testing.T) {
	req := &fa.Request{BAB: 6, Hands: []string{"right", "left"},
		Natural: []fa.Natural{{ID: "claw1", Primary: true, Hand: "right"}, {ID: "claw2", Primary: true, Hand: "left"}, {ID: "bite"}},
		Steps:   []fa.Step{nat("bite"), nat("claw1"), nat("claw2")}}
	wantPrices(t, prices(t, req), "+1 natural secondary", "+6 natural", "+6 natural")
	req.Feats = feats(fa.FeatMultiattack)
	wantPrices(t, prices(t, req), "+4 natural secondary", "+6 natural", "+6 natural")
	req.Steps = append(req.Steps, nat("claw1"))
	wantError(t, req, fa.CodeNoAttackLeft, 3)
	// next: the empty hands' unarmed strikes, then the natural weapons not yet used; an unarmed
	// strike from "right" is refused there after its claw attacked.
	req.Steps = []fa.Step{nat("claw1")}
	wantPrices(t, nextPrices(t, req), "left +6 primary", "claw2 +6 natural", "bite +4 natural secondary")
	req.Steps = []fa.Step{nat("claw1"), atk("right")}
	wantError(t, req, fa.CodeHandBusy, 1)
}

// SPEC §9.7: beside weapon attacks every natural attack is secondary, those made before the
// weapon attack too (priced as a whole).
func TestNaturalBesideWeapons_9_7(t *testing.T) {
	req := &fa.Request{BAB: 6, Holding: map[string]fa.Item{"main": longsword},
		Natural: []fa.Natural{{ID: "bite", Primary: true}},
		Steps:   []fa.Step{nat("bite"), atk("main")}}
	// The bite first, then the sword: the bite is secondary, +6 − 5; the sword +6.
	wantPrices(t, prices(t, req), "+1 natural secondary", "+6 primary")
	req.Feats = feats(fa.FeatMultiattack)
	wantPrices(t, prices(t, req), "+4 natural secondary", "+6 primary")
	// Before the sword, next offers the bite as primary (no weapon attack yet)...
	req.Steps = nil
	wantPrices(t, nextPrices(t, req), "main +6 primary", "off +6 primary", "bite +6 natural")
	// ...and after it, secondary.
	req.Steps = []fa.Step{atk("main")}
	wantPrices(t, nextPrices(t, req), "main +1 primary", "off +1 primary", "bite +4 natural secondary")
	// An unarmed strike is a weapon attack too.
	req = &fa.Request{BAB: 6, Natural: []fa.Natural{{ID: "bite", Primary: true}}, Steps: []fa.Step{nat("bite"), atk("off")}}
	wantPrices(t, prices(t, req), "+1 natural secondary", "+6 primary")
}

// SPEC §9.7: a natural weapon on a hand (a claw).
func TestClawOnHand_9_7(t *testing.T) {
	claw := []fa.Natural{{ID: "claw", Primary: true, Hand: "off"}}
	// The hand holds something: hand_busy.
	req := &fa.Request{BAB: 6, Holding: map[string]fa.Item{"main": longsword, "off": buckler}, Natural: claw,
		Steps: []fa.Step{atk("main"), nat("claw")}}
	wantError(t, req, fa.CodeHandBusy, 1)
	// Dropped, the claw attacks, secondary beside the sword: +6, then +6 − 5.
	req.Steps = []fa.Step{atk("main"), drop("off"), nat("claw")}
	wantPrices(t, prices(t, req), "+6 primary", "-", "+1 natural secondary")
	// The hand made a weapon attack (a shield bash) first: hand_busy, even once empty.
	req.Steps = []fa.Step{atk("off"), drop("off"), nat("claw")}
	wantError(t, req, fa.CodeHandBusy, 2)
	// After its natural attack the hand may not make a weapon attack, not even with a drawn item.
	req.Feats = feats(fa.FeatQuickDraw)
	req.Steps = []fa.Step{drop("off"), nat("claw"), draw("off", dagger), atk("off")}
	wantError(t, req, fa.CodeHandBusy, 3)
	// A two-handed weapon attacks with both hands: the claw's hand is busy for it too.
	req.Holding = map[string]fa.Item{}
	req.Steps = []fa.Step{nat("claw"), draw2("main", "off", greatsword), atk("main")}
	wantError(t, req, fa.CodeHandBusy, 2)
	req.Steps = []fa.Step{draw2("main", "off", greatsword), atk("main"), drop("main"), nat("claw")}
	wantError(t, req, fa.CodeHandBusy, 3)
	// next leaves out what the claw's hand cannot do.
	req.Steps = []fa.Step{nat("claw")}
	wantPrices(t, nextPrices(t, req), "main +6 primary")
}

// SPEC §9.2: drawing needs Quick Draw and an empty hand; dropping a two-handed item frees both.
func TestDrawDrop_9_2(t *testing.T) {
	req := &fa.Request{BAB: 1, Holding: map[string]fa.Item{"main": longsword},
		Steps: []fa.Step{draw("off", dagger)}}
	wantError(t, req, fa.CodeNeedsQuickDraw, 0)
	req.Feats = feats(fa.FeatQuickDraw)
	req.Steps = []fa.Step{draw("main", dagger)}
	wantError(t, req, fa.CodeHandBusy, 0)
	req.Steps = []fa.Step{draw2("main", "off", greatsword)}
	wantError(t, req, fa.CodeHandBusy, 0)
	req.Steps = []fa.Step{drop("main"), draw2("off", "main", greatsword), drop("off"), draw("main", dagger), draw("off", dagger)}
	wantPrices(t, prices(t, req), "-", "-", "-", "-", "-")
	// A bad draw or drop is a bad_request at its index.
	for _, st := range []fa.Step{
		drop("off"),                      // holds nothing
		drop("tail"),                     // no such hand
		{Draw: "off"},                    // no item
		{Draw: "off", Item: &greatsword}, // a two-handed item without hands
		{Draw: "off", Hands: []string{"off"}, Item: &dagger},
		{Draw: "off", Hands: []string{"off", "off"}, Item: &greatsword},
		{Draw: "off", Hands: []string{"main", "tail"}, Item: &greatsword},
		{Draw: "off", Item: &fa.Item{ID: "x", Kind: "huge"}},
		{Draw: "off", Item: &fa.Item{Kind: fa.KindLight}},
	} {
		req.Steps = []fa.Step{drop("main"), st}
		wantError(t, req, fa.CodeBadRequest, 1)
	}
	req.Steps = []fa.Step{drop("main"), {Draw: "off", Hands: []string{"main", "x"}, Item: &greatsword}}
	wantError(t, req, fa.CodeBadRequest, 1)
	// hands not naming the draw hand
	req.Hands = []string{"a", "b", "c"}
	req.Holding = nil
	req.Steps = []fa.Step{{Draw: "a", Hands: []string{"b", "c"}, Item: &greatsword}}
	wantError(t, req, fa.CodeBadRequest, 0)
}

// SPEC §9.8: every code at the index of the first illegal step; errors not about a step at −1.
func TestErrorCodes_9_8(t *testing.T) {
	two := map[string]fa.Item{"main": longsword, "off": shortsword}
	for _, tt := range []struct {
		name string
		req  fa.Request
		code fa.Code
		at   int
	}{
		{"no_attack_left", fa.Request{BAB: 5, Holding: two, Steps: []fa.Step{atk("main"), atk("off")}}, fa.CodeNoAttackLeft, 1},
		{"hand_busy", fa.Request{BAB: 5, Feats: feats(fa.FeatQuickDraw), Holding: two, Steps: []fa.Step{atk("main"), drop("main"), draw("off", dagger)}}, fa.CodeHandBusy, 2},
		{"needs_quick_draw", fa.Request{BAB: 5, Holding: two, Steps: []fa.Step{atk("main"), drop("main"), draw("main", dagger)}}, fa.CodeNeedsQuickDraw, 2},
		{"not_ranged", fa.Request{BAB: 5, RapidShot: true, Feats: feats(fa.FeatRapidShot), Holding: two, Steps: []fa.Step{atk("main"), extra("off")}}, fa.CodeNotRanged, 1},
		{"not_ranged throw", fa.Request{BAB: 5, Holding: two, Steps: []fa.Step{throwAt("main")}}, fa.CodeNotRanged, 0},
		{"not_declared", fa.Request{BAB: 5, Feats: feats(fa.FeatRapidShot), Holding: map[string]fa.Item{"main": longbow, "off": longbow}, Steps: []fa.Step{atk("main"), extra("main")}}, fa.CodeNotDeclared, 1},
		{"bad_request step", fa.Request{BAB: 5, Steps: []fa.Step{atk("main"), atk("tail")}}, fa.CodeBadRequest, 1},
		{"bad_request empty step", fa.Request{BAB: 5, Steps: []fa.Step{{}}}, fa.CodeBadRequest, 0},
		{"bad_request two kinds", fa.Request{BAB: 5, Steps: []fa.Step{{Attack: "main", Drop: "main"}}}, fa.CodeBadRequest, 0},
		{"bad_request head on natural", fa.Request{BAB: 5, Natural: []fa.Natural{{ID: "bite"}}, Steps: []fa.Step{{Natural: "bite", Head: 1}}}, fa.CodeBadRequest, 0},
		{"bad_request item on attack", fa.Request{BAB: 5, Steps: []fa.Step{{Attack: "main", Item: &dagger}}}, fa.CodeBadRequest, 0},
		{"bad_request unknown natural", fa.Request{BAB: 5, Steps: []fa.Step{nat("bite")}}, fa.CodeBadRequest, 0},
		{"bab −1", fa.Request{BAB: -1}, fa.CodeBadRequest, -1},
		{"bab 41", fa.Request{BAB: 41}, fa.CodeBadRequest, -1},
		{"unknown feat", fa.Request{Feats: feats("powerAttack")}, fa.CodeBadRequest, -1},
		{"no hands", fa.Request{Hands: []string{}}, fa.CodeBadRequest, -1},
		{"empty hand name", fa.Request{Hands: []string{"main", ""}}, fa.CodeBadRequest, -1},
		{"long hand name", fa.Request{Hands: []string{strings.Repeat("h", 65)}}, fa.CodeBadRequest, -1},
		{"duplicate hand", fa.Request{Hands: []string{"a", "b", "a"}}, fa.CodeBadRequest, -1},
		{"holding unknown hand", fa.Request{Holding: map[string]fa.Item{"tail": dagger}}, fa.CodeBadRequest, -1},
		{"unknown kind", fa.Request{Holding: map[string]fa.Item{"main": {ID: "x", Kind: "heavy"}}}, fa.CodeBadRequest, -1},
		{"unknown ranged", fa.Request{Holding: map[string]fa.Item{"main": {ID: "x", Kind: fa.KindLight, Ranged: "magic"}}}, fa.CodeBadRequest, -1},
		{"ranged shield", fa.Request{Holding: map[string]fa.Item{"main": {ID: "x", Kind: fa.KindLightShield, Ranged: fa.RangedThrown}}}, fa.CodeBadRequest, -1},
		{"empty item id", fa.Request{Holding: map[string]fa.Item{"main": {Kind: fa.KindLight}}}, fa.CodeBadRequest, -1},
		{"two-handed in one hand", fa.Request{Holding: map[string]fa.Item{"main": greatsword}}, fa.CodeBadRequest, -1},
		{"double in one hand", fa.Request{Holding: map[string]fa.Item{"off": staff}}, fa.CodeBadRequest, -1},
		{"two-handed, two ids", fa.Request{Holding: map[string]fa.Item{"main": greatsword, "off": {ID: "gs2", Kind: fa.KindTwoHanded}}}, fa.CodeBadRequest, -1},
		{"two-handed, two kinds", fa.Request{Holding: map[string]fa.Item{"main": greatsword, "off": {ID: "greatsword", Kind: fa.KindOneHanded}}}, fa.CodeBadRequest, -1},
		{"two-handed in three hands", fa.Request{Hands: []string{"a", "b", "c"}, Holding: map[string]fa.Item{"a": greatsword, "b": greatsword, "c": greatsword}}, fa.CodeBadRequest, -1},
		{"natural on unknown hand", fa.Request{Natural: []fa.Natural{{ID: "claw", Hand: "tail"}}}, fa.CodeBadRequest, -1},
		{"natural without id", fa.Request{Natural: []fa.Natural{{}}}, fa.CodeBadRequest, -1},
		{"duplicate natural", fa.Request{Natural: []fa.Natural{{ID: "claw"}, {ID: "claw"}}}, fa.CodeBadRequest, -1},
		{"twoWeapon, one hand", fa.Request{Hands: []string{"main"}, TwoWeapon: true}, fa.CodeBadRequest, -1},
		{"rapidShot without the feat", fa.Request{RapidShot: true}, fa.CodeBadRequest, -1},
		{"too many feats", fa.Request{Feats: make([]fa.Feat, fa.MaxFeats+1)}, fa.CodeTooLarge, -1},
		{"too many hands", fa.Request{Hands: manyNames("h", fa.MaxHands+1)}, fa.CodeTooLarge, -1},
		{"too many holdings", fa.Request{Holding: manyItems(fa.MaxHands + 1)}, fa.CodeTooLarge, -1},
		{"too many natural weapons", fa.Request{Natural: manyNatural(fa.MaxNatural + 1)}, fa.CodeTooLarge, -1},
		{"too many steps", fa.Request{Steps: make([]fa.Step, fa.MaxSteps+1)}, fa.CodeTooLarge, -1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := wantError(t, &tt.req, tt.code, tt.at)
			if tt.at >= 0 && !strings.Contains(e.Message, "steps["+strconv.Itoa(tt.at)+"]") {
				t.Errorf("message %q does not name steps[%d]", e.Message, tt.at)
			}
			rule := tt.code != fa.CodeBadRequest && tt.code != fa.CodeTooLarge
			if e.Rule() != rule {
				t.Errorf("Rule() = %v for %s", e.Rule(), tt.code)
			}
		})
	}
	if _, err := fa.Plan(nil); err == nil {
		t.Error("Plan(nil): no error")
	}
	// At the limits, no error.
	mustPlan(t, &fa.Request{BAB: fa.MaxBAB, Hands: manyNames("h", fa.MaxHands), Natural: manyNatural(fa.MaxNatural),
		Feats: make([]fa.Feat, fa.MaxFeats)[:0], Steps: make([]fa.Step, fa.MaxSteps)[:0]})
	steps := make([]fa.Step, fa.MaxSteps)
	for i := range steps {
		steps[i] = drop("main")
		if i%2 == 1 {
			steps[i] = draw("main", dagger)
		}
	}
	mustPlan(t, &fa.Request{Feats: feats(fa.FeatQuickDraw), Holding: map[string]fa.Item{"main": dagger}, Steps: steps})
	fs := make([]fa.Feat, fa.MaxFeats)
	for i := range fs {
		fs[i] = fa.FeatQuickDraw
	}
	mustPlan(t, &fa.Request{Feats: fs})
	mustPlan(t, &fa.Request{Hands: []string{strings.Repeat("h", fa.MaxID)}})
}

func manyNames(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = prefix + strconv.Itoa(i)
	}
	return out
}

func manyItems(n int) map[string]fa.Item {
	out := map[string]fa.Item{}
	for _, h := range manyNames("h", n) {
		out[h] = dagger
	}
	return out
}

func manyNatural(n int) []fa.Natural {
	out := make([]fa.Natural, n)
	for i, id := range manyNames("claw", n) {
		out[i] = fa.Natural{ID: id}
	}
	return out
}

// SPEC §9.8: drop and draw steps come back as sent, without bonus; At is on the wire even at 0.
func TestWire_9_8(t *testing.T) {
	res := mustPlan(t, &fa.Request{BAB: 1, Feats: feats(fa.FeatQuickDraw), Holding: map[string]fa.Item{"main": longsword},
		Steps: []fa.Step{drop("main"), draw2("main", "off", greatsword)}})
	if s := res.Steps[0]; s.Drop != "main" || s.Bonus != nil || s.Parts != nil {
		t.Errorf("drop: %+v", s)
	}
	if s := res.Steps[1]; s.Draw != "main" || len(s.Hands) != 2 || s.Item == nil || *s.Item != greatsword || s.Bonus != nil {
		t.Errorf("draw: %+v", s)
	}
	if res.Next == nil || res.Steps == nil {
		t.Error("steps and next must be lists, not null")
	}
}
