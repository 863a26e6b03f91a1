package fullattack_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	fa "github.com/aoekit/aoekit/core/fullattack"
)

// Items of the tests, SRD kinds.
var (
	longsword   = fa.Item{ID: "longsword", Kind: fa.KindOneHanded}
	shortsword  = fa.Item{ID: "shortsword", Kind: fa.KindLight}
	dagger      = fa.Item{ID: "dagger", Kind: fa.KindLight, Ranged: fa.RangedThrown}
	javelin     = fa.Item{ID: "javelin", Kind: fa.KindOneHanded, Ranged: fa.RangedThrown}
	greatsword  = fa.Item{ID: "greatsword", Kind: fa.KindTwoHanded}
	longbow     = fa.Item{ID: "longbow", Kind: fa.KindTwoHanded, Ranged: fa.RangedProjectile}
	handxbow    = fa.Item{ID: "handCrossbow", Kind: fa.KindLight, Ranged: fa.RangedProjectile}
	staff       = fa.Item{ID: "quarterstaff", Kind: fa.KindDouble}
	buckler     = fa.Item{ID: "lightShield", Kind: fa.KindLightShield}
	heavyShield = fa.Item{ID: "heavyShield", Kind: fa.KindHeavyShield}
)

func feats(f ...fa.Feat) []fa.Feat { return f }

func atk(hand string) fa.Step              { return fa.Step{Attack: hand} }
func head(hand string, h int) fa.Step      { return fa.Step{Attack: hand, Head: h} }
func extra(hand string) fa.Step            { return fa.Step{Attack: hand, Extra: true} }
func throwAt(hand string) fa.Step          { return fa.Step{Attack: hand, Throw: true} }
func extraThrow(hand string) fa.Step       { return fa.Step{Attack: hand, Extra: true, Throw: true} }
func nat(id string) fa.Step                { return fa.Step{Natural: id} }
func drop(hand string) fa.Step             { return fa.Step{Drop: hand} }
func draw(hand string, it fa.Item) fa.Step { return fa.Step{Draw: hand, Item: &it} }
func draw2(a, b string, it fa.Item) fa.Step {
	return fa.Step{Draw: a, Hands: []string{a, b}, Item: &it}
}

// mustPlan plans req and fails the test on an error.
func mustPlan(t *testing.T, req *fa.Request) *fa.Result {
	t.Helper()
	res, err := fa.Plan(req)
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	if len(res.Steps) != len(req.Steps) {
		t.Fatalf("Plan: %d steps priced, %d sent", len(res.Steps), len(req.Steps))
	}
	return res
}

// priced is a step's price as text: "+9 primary", "-1 off", "+4 natural secondary"; "-" for a
// drop or a draw. It checks that the bonus is the sum of the parts.
func priced(t *testing.T, s fa.PricedStep) string {
	t.Helper()
	if s.Bonus == nil {
		if s.Parts != nil || s.As != "" {
			t.Errorf("a step without a bonus has a price: %+v", s)
		}
		return "-"
	}
	p := s.Parts
	if p == nil {
		t.Fatalf("a bonus without parts: %+v", s)
	}
	if sum := p.Sequence + p.TwoWeapon + p.RapidShot + p.Natural; sum != *s.Bonus {
		t.Errorf("bonus %d is not the sum of its parts %+v", *s.Bonus, *p)
	}
	out := signed(*s.Bonus) + " " + string(s.As)
	if s.Secondary {
		out += " secondary"
	}
	return out
}

func signed(v int) string {
	if v >= 0 {
		return "+" + strconv.Itoa(v)
	}
	return strconv.Itoa(v)
}

// prices plans req and returns every step's price.
func prices(t *testing.T, req *fa.Request) []string {
	t.Helper()
	res := mustPlan(t, req)
	out := make([]string, len(res.Steps))
	for i, s := range res.Steps {
		out[i] = priced(t, s)
	}
	return out
}

func nextPrices(t *testing.T, req *fa.Request) []string {
	t.Helper()
	res := mustPlan(t, req)
	out := make([]string, len(res.Next))
	for i, s := range res.Next {
		name := s.Attack
		if s.Natural != "" {
			name = s.Natural
		}
		if s.Head != 0 {
			name += "/" + strconv.Itoa(s.Head)
		}
		if s.Extra {
			name += " extra"
		}
		out[i] = name + " " + priced(t, s)
	}
	return out
}

func wantPrices(t *testing.T, got []string, want ...string) {
	t.Helper()
	if strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Errorf("got  %s\nwant %s", strings.Join(got, ", "), strings.Join(want, ", "))
	}
}

// wantError plans req and checks the error's code and step index.
func wantError(t *testing.T, req *fa.Request, code fa.Code, at int) *fa.Error {
	t.Helper()
	res, err := fa.Plan(req)
	if err == nil {
		t.Fatalf("Plan: no error, want %s at %d; steps %+v", code, at, res.Steps)
	}
	var e *fa.Error
	if !errors.As(err, &e) {
		t.Fatalf("Plan: %T %v, want an *Error", err, err)
	}
	if e.Code != code || e.At != at {
		t.Fatalf("Plan: %s at %d (%s), want %s at %d", e.Code, e.At, e.Message, code, at)
	}
	if e.Message == "" {
		t.Errorf("Plan: %s without a message", e.Code)
	}
	return e
}
