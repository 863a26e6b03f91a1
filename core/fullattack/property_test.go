package fullattack_test

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	fa "github.com/aoekit/aoekit/core/fullattack"
)

// SPEC §9.8: `next` is every attack that could come now, priced as if appended. For random
// legal plans: appending any entry of next gives a legal plan whose last step has exactly that
// price; and every attack step that could be appended legally has its entry in next (a throw
// is listed as the same hand's strike, which costs the same; a two-handed or double weapon
// under its first hand).
func TestNextAppended_9_8(t *testing.T) {
	r := rand.New(rand.NewPCG(98, 98))
	checked, legal := 0, 0
	for checked < 3000 {
		req := randomRequest(r)
		res, err := fa.Plan(req)
		if err != nil {
			continue
		}
		checked++
		for _, n := range res.Next {
			more := *req
			more.Steps = append(slices.Clip(req.Steps), fa.Step{Attack: n.Attack, Head: n.Head, Extra: n.Extra, Throw: n.Throw, Natural: n.Natural})
			got, err := fa.Plan(&more)
			if err != nil {
				t.Fatalf("%s\nnext entry %s: appended, %v", dump(req), dump(n), err)
			}
			if a, b := dump(got.Steps[len(got.Steps)-1]), dump(n); a != b {
				t.Fatalf("%s\nnext entry %s, appended: %s", dump(req), b, a)
			}
			// The earlier steps keep their prices, but for natural attacks a weapon attack
			// turns secondary (§9.7).
			for i, s := range res.Steps {
				if s.As != fa.AsNatural && dump(got.Steps[i]) != dump(s) {
					t.Fatalf("%s\nappending %s changed step %d: %s to %s", dump(req), dump(n), i, dump(s), dump(got.Steps[i]))
				}
			}
		}
		hands := req.Hands
		if hands == nil {
			hands = []string{"main", "off"}
		}
		var cands []fa.Step
		for _, h := range hands {
			for head := range 3 {
				for _, x := range [][2]bool{{false, false}, {false, true}, {true, false}, {true, true}} {
					cands = append(cands, fa.Step{Attack: h, Head: head, Extra: x[0], Throw: x[1]})
				}
			}
		}
		for _, n := range req.Natural {
			cands = append(cands, fa.Step{Natural: n.ID})
		}
		for _, c := range cands {
			more := *req
			more.Steps = append(slices.Clip(req.Steps), c)
			got, err := fa.Plan(&more)
			if err != nil {
				continue
			}
			legal++
			last := got.Steps[len(got.Steps)-1]
			found := false
			for _, n := range res.Next {
				if n.Head == last.Head && n.Extra == last.Extra && n.Natural == last.Natural && n.With == last.With &&
					n.As == last.As && *n.Bonus == *last.Bonus && (n.Attack == last.Attack || last.With != fa.Unarmed) &&
					(n.Throw == last.Throw || !n.Extra) {
					found = true
				}
			}
			if !found {
				t.Fatalf("%s\n%s may be appended (%s) but next is %s", dump(req), dump(c), dump(last), dump(res.Next))
			}
		}
	}
	t.Logf("%d plans, %d legal appended attacks", checked, legal)
}

// FuzzPlan: any JSON decoded into a Request is answered with a result or an *Error of a known
// code, never a panic; a result prices every step, each bonus the sum of its parts.
func FuzzPlan(f *testing.F) {
	for _, s := range []string{
		`{}`,
		`{"bab":11,"feats":["twoWeaponFighting","quickDraw"],"holding":{"main":{"id":"longsword","kind":"oneHanded"},"off":{"id":"dagger","kind":"light"}},"twoWeapon":true,"steps":[{"attack":"main"},{"attack":"off"},{"drop":"main"},{"drop":"off"},{"draw":"main","hands":["main","off"],"item":{"id":"greatsword","kind":"twoHanded"}},{"attack":"main"}]}`,
		`{"bab":6,"feats":["rapidShot","quickDraw"],"rapidShot":true,"holding":{"main":{"id":"dagger","kind":"light","ranged":"thrown"}},"steps":[{"attack":"main","throw":true},{"draw":"main","item":{"id":"dagger","kind":"light","ranged":"thrown"}},{"attack":"main","extra":true,"throw":true}]}`,
		`{"bab":6,"hands":["r","l"],"natural":[{"id":"claw","primary":true,"hand":"l"},{"id":"bite"}],"steps":[{"natural":"claw"},{"attack":"r"},{"natural":"bite"}]}`,
		`{"bab":40,"hands":["a","b","c","d"],"holding":{"a":{"id":"q","kind":"double"},"b":{"id":"q","kind":"double"}},"twoWeapon":true,"steps":[{"attack":"b","head":2},{"attack":"c"}]}`,
		`{"bab":-3,"steps":[{"attack":"main","head":-1}]}`,
	} {
		f.Add([]byte(s))
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 40 {
		b, _ := json.Marshal(randomRequest(r))
		f.Add(b)
	}
	known := []fa.Code{fa.CodeNoAttackLeft, fa.CodeHandBusy, fa.CodeNeedsQuickDraw, fa.CodeNotRanged, fa.CodeNotDeclared, fa.CodeBadRequest, fa.CodeTooLarge}
	f.Fuzz(func(t *testing.T, data []byte) {
		var req fa.Request
		if json.Unmarshal(data, &req) != nil {
			return
		}
		res, err := fa.Plan(&req)
		if err != nil {
			var e *fa.Error
			if !errors.As(err, &e) || !slices.Contains(known, e.Code) || e.Message == "" {
				t.Fatalf("Plan: %#v", err)
			}
			if e.At < -1 || e.At >= len(req.Steps) {
				t.Fatalf("Plan: %v at %d of %d steps", e, e.At, len(req.Steps))
			}
			if res != nil {
				t.Fatalf("Plan: a result with an error")
			}
			return
		}
		if len(res.Steps) != len(req.Steps) || res.Next == nil {
			t.Fatalf("Plan: %d steps for %d, next %v", len(res.Steps), len(req.Steps), res.Next)
		}
		for _, s := range append(slices.Clip(res.Steps), res.Next...) {
			if (s.Bonus == nil) != (s.Parts == nil) {
				t.Fatalf("bonus and parts: %+v", s)
			}
			if s.Bonus != nil && *s.Bonus != s.Parts.Sequence+s.Parts.TwoWeapon+s.Parts.RapidShot+s.Parts.Natural {
				t.Fatalf("bonus %d, parts %+v", *s.Bonus, *s.Parts)
			}
		}
		if _, err := json.Marshal(res); err != nil {
			t.Fatal(err)
		}
	})
}
