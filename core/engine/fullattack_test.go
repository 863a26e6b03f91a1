package engine_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/aoekit/aoekit/core/engine"
	fa "github.com/aoekit/aoekit/core/fullattack"
)

// FullAttack's errors are *engine.Error: fullattack's code by the same name, its message, and a
// step's index in At with Step set (At −1 in fullattack: neither).
func TestFullAttackErrors(t *testing.T) {
	longsword := fa.Item{ID: "longsword", Kind: fa.KindOneHanded}
	for _, c := range []struct {
		name string
		req  *fa.Request
		code engine.Code
		at   int
		step bool
	}{
		{"no attack left", &fa.Request{BAB: 1, Holding: map[string]fa.Item{"main": longsword},
			Steps: []fa.Step{{Attack: "main"}, {Attack: "main"}}}, engine.CodeNoAttackLeft, 1, true},
		{"hand busy at step 0", &fa.Request{BAB: 1, Feats: []fa.Feat{fa.FeatQuickDraw}, Holding: map[string]fa.Item{"main": longsword},
			Steps: []fa.Step{{Draw: "main", Item: &longsword}}}, engine.CodeHandBusy, 0, true},
		{"needs quick draw", &fa.Request{Steps: []fa.Step{{Draw: "main", Item: &longsword}}}, engine.CodeNeedsQuickDraw, 0, true},
		{"not ranged", &fa.Request{Steps: []fa.Step{{Attack: "off"}, {Attack: "main", Throw: true}}}, engine.CodeNotRanged, 1, true},
		{"not declared", &fa.Request{Steps: []fa.Step{{Attack: "main", Extra: true}}}, engine.CodeNotDeclared, 0, true},
		{"a malformed step", &fa.Request{Steps: []fa.Step{{}}}, engine.CodeBadRequest, 0, true},
		{"a bad combatant", &fa.Request{BAB: 41}, engine.CodeBadRequest, 0, false},
		{"too many steps", &fa.Request{Steps: make([]fa.Step, fa.MaxSteps+1)}, engine.CodeTooLarge, 0, false},
		{"nil", nil, engine.CodeBadRequest, 0, false},
	} {
		res, err := engine.FullAttack(c.req)
		var e *engine.Error
		if !errors.As(err, &e) || res != nil {
			t.Errorf("%s: %v, %v; want an *engine.Error", c.name, res, err)
			continue
		}
		_, planErr := fa.Plan(c.req)
		want := planErr.(*fa.Error)
		if e.Code != c.code || e.At != c.at || e.Step != c.step || e.Message != want.Message || string(e.Code) != string(want.Code) {
			t.Errorf("%s: %s %q at %d (step %v); want %s %q at %d (step %v)", c.name, e.Code, e.Message, e.At, e.Step,
				c.code, want.Message, c.at, c.step)
		}
		if rule := e.Rule(); rule != want.Rule() {
			t.Errorf("%s: Rule() = %v, fullattack's %v", c.name, rule, want.Rule())
		}
	}
}

// Every code of a full attack is one of the engine's constants, a rule violation exactly when
// fullattack says so (HTTP 422).
func TestFullAttackCodes(t *testing.T) {
	for _, c := range []struct {
		code fa.Code
		want engine.Code
	}{
		{fa.CodeNoAttackLeft, engine.CodeNoAttackLeft}, {fa.CodeHandBusy, engine.CodeHandBusy},
		{fa.CodeNeedsQuickDraw, engine.CodeNeedsQuickDraw}, {fa.CodeNotRanged, engine.CodeNotRanged},
		{fa.CodeNotDeclared, engine.CodeNotDeclared}, {fa.CodeBadRequest, engine.CodeBadRequest},
		{fa.CodeTooLarge, engine.CodeTooLarge},
	} {
		if string(c.code) != string(c.want) {
			t.Errorf("fullattack %s is engine %s", c.code, c.want)
		}
		if got, want := (&engine.Error{Code: c.want}).Rule(), (&fa.Error{Code: c.code}).Rule(); got != want {
			t.Errorf("%s: Rule() = %v, fullattack's %v", c.want, got, want)
		}
	}
}

// A full attack through the engine: CONTRACT fullAttack's example (SPEC §9.5 (a)).
func ExampleFullAttack() {
	res, err := engine.FullAttack(&fa.Request{
		BAB:   11,
		Feats: []fa.Feat{fa.FeatTwoWeaponFighting, fa.FeatQuickDraw},
		Holding: map[string]fa.Item{
			"main": {ID: "longsword", Kind: fa.KindOneHanded},
			"off":  {ID: "dagger", Kind: fa.KindLight, Ranged: fa.RangedThrown},
		},
		TwoWeapon: true,
		Steps: []fa.Step{
			{Attack: "main"}, {Attack: "off"}, {Drop: "main"}, {Drop: "off"},
			{Draw: "main", Hands: []string{"main", "off"}, Item: &fa.Item{ID: "greatsword", Kind: fa.KindTwoHanded}},
			{Attack: "main"},
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range res.Steps {
		if s.Bonus != nil {
			fmt.Printf("%s with %s: %+d (%s)\n", s.Attack, s.With, *s.Bonus, s.As)
		}
	}
	for _, s := range res.Next {
		fmt.Printf("next: %s with %s: %+d\n", s.Attack, s.With, *s.Bonus)
	}
	// A second off-hand attack needs Improved Two-Weapon Fighting: the off hand's one is spent.
	_, err = engine.FullAttack(&fa.Request{BAB: 11, Feats: []fa.Feat{fa.FeatTwoWeaponFighting}, TwoWeapon: true,
		Steps: []fa.Step{{Attack: "off"}, {Attack: "off"}}})
	var e *engine.Error
	if errors.As(err, &e) {
		fmt.Println(e.Code, "at step", e.At)
	}
	// Output:
	// main with longsword: +9 (primary)
	// off with dagger: +9 (off)
	// main with greatsword: +4 (primary)
	// next: main with greatsword: -1
	// no_attack_left at step 1
}
