package wire

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/aoekit/aoekit/core/engine"
	"github.com/aoekit/aoekit/core/fullattack"
)

// The CONTRACT fullAttack example request, word for word.
const fullAttackContract = `{"bab": 11, "feats": ["twoWeaponFighting", "quickDraw"], "hands": ["main", "off"],
 "holding": {"main": {"id": "longsword", "kind": "oneHanded"}, "off": {"id": "dagger", "kind": "light", "ranged": "thrown"}},
 "natural": [{"id": "bite", "primary": true}],
 "twoWeapon": true, "rapidShot": false,
 "steps": [{"attack": "main"}, {"attack": "off"}, {"drop": "main"}, {"drop": "off"},
           {"draw": "main", "hands": ["main", "off"], "item": {"id": "greatsword", "kind": "twoHanded"}}]}`

func TestDecodeFullAttackContract(t *testing.T) {
	got, err := DecodeFullAttack([]byte(fullAttackContract))
	if err != nil {
		t.Fatal(err)
	}
	want := &fullattack.Request{
		BAB:   11,
		Feats: []fullattack.Feat{fullattack.FeatTwoWeaponFighting, fullattack.FeatQuickDraw},
		Hands: []string{"main", "off"},
		Holding: map[string]fullattack.Item{
			"main": {ID: "longsword", Kind: fullattack.KindOneHanded},
			"off":  {ID: "dagger", Kind: fullattack.KindLight, Ranged: fullattack.RangedThrown},
		},
		Natural:   []fullattack.Natural{{ID: "bite", Primary: true}},
		TwoWeapon: true,
		Steps: []fullattack.Step{{Attack: "main"}, {Attack: "off"}, {Drop: "main"}, {Drop: "off"},
			{Draw: "main", Hands: []string{"main", "off"}, Item: &fullattack.Item{ID: "greatsword", Kind: fullattack.KindTwoHanded}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
	// Its answer, as CONTRACT fullAttack shows it: the bite is secondary once a weapon attacks
	// (SPEC §9.7), and the greatsword may take the primary sequence's next bonus.
	out, ferr := FullAttack([]byte(fullAttackContract))
	if ferr != nil {
		t.Fatal(ferr)
	}
	const wantOut = `{"steps":[` +
		`{"attack":"main","with":"longsword","as":"primary","bonus":9,"parts":{"sequence":11,"twoWeapon":-2,"rapidShot":0,"natural":0}},` +
		`{"attack":"off","with":"dagger","as":"off","bonus":9,"parts":{"sequence":11,"twoWeapon":-2,"rapidShot":0,"natural":0}},` +
		`{"drop":"main"},{"drop":"off"},` +
		`{"draw":"main","hands":["main","off"],"item":{"id":"greatsword","kind":"twoHanded"}}],` +
		`"next":[{"attack":"main","with":"greatsword","as":"primary","bonus":4,"parts":{"sequence":6,"twoWeapon":-2,"rapidShot":0,"natural":0}},` +
		`{"natural":"bite","with":"bite","as":"natural","secondary":true,"bonus":6,"parts":{"sequence":11,"twoWeapon":0,"rapidShot":0,"natural":-5}}]}`
	if string(out) != wantOut {
		t.Errorf("got  %s\nwant %s", out, wantOut)
	}
}

func TestDecodeFullAttackShapes(t *testing.T) {
	for _, c := range []struct {
		in   string
		want fullattack.Request
	}{
		{`{}`, fullattack.Request{}},
		{`{"bab": 6.0, "feats": [], "hands": [], "holding": {}, "natural": [], "steps": []}`,
			fullattack.Request{BAB: 6, Feats: []fullattack.Feat{}, Hands: []string{}, Holding: map[string]fullattack.Item{},
				Natural: []fullattack.Natural{}, Steps: []fullattack.Step{}}},
		{`{"feats": null, "hands": null, "holding": null, "natural": null, "steps": null, "twoWeapon": null}`, fullattack.Request{}},
		// A null item is an absent one (as a null defence is); a repeated hand keeps its last item.
		{`{"holding": {"main": null, "off": {"id": "a", "kind": "light"}, "off": {"id": "b", "kind": "light", "ranged": null}}}`,
			fullattack.Request{Holding: map[string]fullattack.Item{"off": {ID: "b", Kind: "light"}}}},
		{`{"holding": {"main": {"id": "a", "kind": "light"}, "main": null}}`,
			fullattack.Request{Holding: map[string]fullattack.Item{"main": {ID: "a", Kind: "light"}}}},
		{`{"holding": {"\u00e9": {"kind": "x", "unknown": [1]}}}`, fullattack.Request{Holding: map[string]fullattack.Item{"é": {Kind: "x"}}}},
		{`{"steps": [{"attack": "main", "head": 2, "extra": true, "throw": false}, {"draw": "a", "hands": ["a", "b"], "item": {"id": "s", "kind": "double"}}, {"item": null}]}`,
			fullattack.Request{Steps: []fullattack.Step{{Attack: "main", Head: 2, Extra: true},
				{Draw: "a", Hands: []string{"a", "b"}, Item: &fullattack.Item{ID: "s", Kind: "double"}}, {}}}},
		{`{"natural": [{"id": "claw", "hand": "main"}, {"id": "bite", "primary": true}], "unknown": {"steps": 1}}`,
			fullattack.Request{Natural: []fullattack.Natural{{ID: "claw", Hand: "main"}, {ID: "bite", Primary: true}}}},
	} {
		got, err := DecodeFullAttack([]byte(c.in))
		if err != nil {
			t.Errorf("DecodeFullAttack(%s): %v", c.in, err)
			continue
		}
		if !reflect.DeepEqual(*got, c.want) {
			t.Errorf("DecodeFullAttack(%s)\n got %+v\nwant %+v", c.in, *got, c.want)
		}
	}
}

func TestDecodeFullAttackErrors(t *testing.T) {
	for _, c := range []struct{ in, msg string }{
		{`[]`, "request: expected an object, got an array"},
		{`{"bab": "11"}`, "bab: expected an integer, got a string"},
		{`{"bab": 1.5}`, "bab: expected an integer, got 1.5"},
		{`{"feats": "rapidShot"}`, "feats: expected an array of strings, got a string"},
		{`{"feats": ["rapidShot", 2]}`, "feats[1]: expected a string, got a number"},
		{`{"hands": [null]}`, "hands[0]: expected a string, got null"},
		{`{"holding": []}`, `holding: expected an object {"<hand>": item, …}, got an array`},
		{`{"holding": {"main": "longsword"}}`, `holding["main"]: expected an item object {"id", "kind", "ranged"}, got a string`},
		{`{"holding": {"main": {"kind": 1}}}`, `holding["main"].kind: expected a string, got a number`},
		{`{"natural": {}}`, "natural: expected an array of natural weapons, got an object"},
		{`{"natural": [{"primary": "yes"}]}`, "natural[0].primary: expected a boolean (true or false), got a string"},
		{`{"twoWeapon": 1}`, "twoWeapon: expected a boolean (true or false), got a number"},
		{`{"steps": [{}, {}, {}, {"attack": 1}]}`, "steps[3].attack: expected a string, got a number"},
		{`{"steps": [3]}`, "steps[0]: expected a step object, got a number"},
		{`{"steps": [{"head": "1"}]}`, "steps[0].head: expected an integer, got a string"},
		{`{"steps": [{"draw": "main", "item": []}]}`, `steps[0].item: expected an item object {"id", "kind", "ranged"}, got an array`},
		{`{"steps": [{"hands": "main"}]}`, "steps[0].hands: expected an array of strings, got a string"},
		{`{"steps": [{"attack": "main"}`, "malformed JSON at byte 29: unexpected end of input"},
	} {
		_, err := DecodeFullAttack([]byte(c.in))
		if err == nil {
			t.Errorf("DecodeFullAttack(%s) accepted", c.in)
			continue
		}
		if err.Code != engine.CodeBadRequest || err.Message != c.msg || err.At != 0 || err.Step {
			t.Errorf("DecodeFullAttack(%s)\n got %s %q at %d\nwant bad_request %q", c.in, err.Code, err.Message, err.At, c.msg)
		}
		if out, ferr := FullAttack([]byte(c.in)); out != nil || ferr == nil || ferr.Message != c.msg || Status(ferr) != 400 {
			t.Errorf("FullAttack(%s) = %s, %v", c.in, out, ferr)
		}
	}
}

// TestFullAttackErrors: through the door, an error about a step has "at", its index (0
// included), and a rule violation is 422; an error about the request has no "at".
func TestFullAttackErrors(t *testing.T) {
	for _, c := range []struct {
		in, want string
		status   int
	}{
		{`{"steps": [{"attack": "main", "extra": true}]}`,
			`{"error":{"code":"not_declared","message":"steps[0].extra: Rapid Shot's extra attack needs rapidShot declared for the full attack","field":"steps[0].extra","at":0}}`, 422},
		{`{"bab": 3, "steps": [{"attack": "main"}, {"attack": "main"}]}`,
			`{"error":{"code":"no_attack_left","message":"steps[1]: the primary sequence's 1 attack(s) at bab 3 have been made (§9.3)","field":"steps[1]","at":1}}`, 422},
		{`{"steps": [{"attack": "left"}]}`,
			`{"error":{"code":"bad_request","message":"steps[0].attack: \"left\" is not one of the hands","field":"steps[0].attack","at":0}}`, 400},
		{`{"bab": 41}`, `{"error":{"code":"bad_request","message":"bab: expected 0 … 40, got 41","field":"bab"}}`, 400},
		{`{"rapidShot": true}`, `{"error":{"code":"bad_request","message":"rapidShot: declared without the rapidShot feat","field":"rapidShot"}}`, 400},
	} {
		out, err := FullAttack([]byte(c.in))
		if out != nil || err == nil || string(Error(err)) != c.want || Status(err) != c.status {
			t.Errorf("FullAttack(%s) = %s, %s (%d)\nwant %s (%d)", c.in, out, Error(err), Status(err), c.want, c.status)
		}
	}
}

// TestFullAttackLimits: fullattack's own limits (SPEC §9.1) answer through the door — counts
// too_large, lengths and values bad_request — and the body's limit is the doors' (1 MiB).
func TestFullAttackLimits(t *testing.T) {
	list := func(n int, item string) string {
		return "[" + strings.TrimSuffix(strings.Repeat(item+",", n), ",") + "]"
	}
	long := strings.Repeat("h", fullattack.MaxID+1)
	for _, c := range []struct {
		in   string
		code engine.Code
		msg  string
	}{
		{`{"steps": ` + list(fullattack.MaxSteps+1, `{"attack": "main"}`) + `}`, engine.CodeTooLarge, "steps: 65 steps, past the limit of 64"},
		{`{"steps": ` + list(100000, `{}`) + `}`, engine.CodeTooLarge, "steps: 100000 steps, past the limit of 64"},
		{`{"hands": ` + list(fullattack.MaxHands+1, `"h"`) + `}`, engine.CodeTooLarge, "hands: 9 hands, past the limit of 8"},
		{`{"feats": ` + list(fullattack.MaxFeats+1, `"quickDraw"`) + `}`, engine.CodeTooLarge, "feats: 17 feats, past the limit of 16"},
		{`{"natural": ` + list(fullattack.MaxNatural+1, `{"id": "n"}`) + `}`, engine.CodeTooLarge, "natural: 17 natural weapons, past the limit of 16"},
		{`{"holding": {"a": {}, "b": {}, "c": {}, "d": {}, "e": {}, "f": {}, "g": {}, "h": {}, "i": {}}}`, engine.CodeTooLarge,
			"holding: 9 entries, past the limit of 8"},
		{`{"hands": ["` + long + `"]}`, engine.CodeBadRequest, "hands[0]: a hand's name is 65 bytes, past the limit of 64"},
		{`{"holding": {"main": {"id": "` + long + `", "kind": "light"}}}`, engine.CodeBadRequest,
			`holding["main"].id: an item's id is 65 bytes, past the limit of 64`},
		{`{"steps": [{"attack": "` + strings.Repeat("x", 500000) + `"}]}`, engine.CodeBadRequest,
			"steps[0].attack: a text of 500000 bytes is not one of the hands"},
		{`{"bab": -1}`, engine.CodeBadRequest, "bab: expected 0 … 40, got -1"},
		{`{"bab": 2147483648}`, engine.CodeBadRequest, "bab: integer 2147483648 out of range (-2147483648 to 2147483647)"},
	} {
		_, err := FullAttack([]byte(c.in))
		if err == nil || err.Code != c.code || err.Message != c.msg || Status(err) != 400 {
			t.Errorf("FullAttack(%.80s…) = %+v\nwant %s %q", c.in, err, c.code, c.msg)
		}
	}
}

// randomFullAttack draws a full-attack request whose every value the wire can carry.
func randomFullAttack(r *rand.Rand) *fullattack.Request {
	req := randomValue[fullattack.Request](r)
	valid := func(s string) string { return strings.ToValidUTF8(s, "\ufffd") }
	validAs := func(p *string) { *p = valid(*p) }
	req.BAB = int(int32(req.BAB))
	for i := range req.Feats {
		validAs((*string)(&req.Feats[i]))
	}
	for i := range req.Hands {
		req.Hands[i] = valid(req.Hands[i])
	}
	fixItem := func(it *fullattack.Item) {
		validAs(&it.ID)
		validAs((*string)(&it.Kind))
		validAs((*string)(&it.Ranged))
	}
	if req.Holding != nil {
		h := map[string]fullattack.Item{}
		for k, it := range req.Holding {
			fixItem(&it)
			h[valid(k)] = it
		}
		req.Holding = h
	}
	for i := range req.Natural {
		n := &req.Natural[i]
		n.ID, n.Hand = valid(n.ID), valid(n.Hand)
	}
	for i := range req.Steps {
		s := &req.Steps[i]
		for _, p := range []*string{&s.Attack, &s.Natural, &s.Drop, &s.Draw} {
			validAs(p)
		}
		s.Head = int(int32(s.Head))
		for j := range s.Hands {
			s.Hands[j] = valid(s.Hands[j])
		}
		if s.Item != nil {
			fixItem(s.Item)
		}
	}
	return req
}

// TestDecodeFullAttackMatchesReference encodes random full-attack requests with encoding/json in
// the CONTRACT form (toWire's: every field, nil pointers, lists and maps left out, empty ones
// kept) and checks that DecodeFullAttack gives back the very same request.
func TestDecodeFullAttackMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	n := 2000
	if testing.Short() {
		n = 200
	}
	for i := 0; i < n; i++ {
		want := randomFullAttack(r)
		m := wireValue(reflect.ValueOf(want).Elem()).(map[string]any)
		m["someUnknownField"] = map[string]any{"steps": []any{1, "two", nil}}
		body, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if i%2 == 1 {
			var b bytes.Buffer
			json.Indent(&b, body, " ", "\t")
			body = b.Bytes()
		}
		got, derr := DecodeFullAttack(body)
		if derr != nil {
			t.Fatalf("DecodeFullAttack(%s): %v", body, derr)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("DecodeFullAttack(%s)\n got %+v\nwant %+v", body, got, want)
		}
		// And the door answers it as the Go door does, byte for byte.
		out, ferr := FullAttack(body)
		res, gerr := engine.FullAttack(want)
		switch {
		case gerr != nil && (ferr == nil || ferr.Message != gerr.(*engine.Error).Message):
			t.Fatalf("FullAttack(%s) = %s, %v; Go door %v", body, out, ferr, gerr)
		case gerr == nil && (ferr != nil || !bytes.Equal(out, stdJSON(t, res))):
			t.Fatalf("FullAttack(%s) = %s, %v; Go door %s", body, out, ferr, stdJSON(t, res))
		}
	}
}

func FuzzDecodeFullAttack(f *testing.F) {
	for _, s := range append(fuzzSeeds, fullAttackContract, `{"holding": {"main": null, "off": {"id": "d", "kind": "light"}}}`,
		`{"feats": ["rapidShot"], "rapidShot": true, "holding": {"main": {"id": "bow", "kind": "twoHanded", "ranged": "projectile"}}, `+
			`"hands": ["main", "off"], "steps": [{"attack": "main"}, {"attack": "main", "extra": true}]}`) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		req, err := DecodeFullAttack(data)
		checkDecodeError(t, data, err)
		if err == nil && req == nil {
			t.Fatal("nil request without an error")
		}
		out, ferr := FullAttack(data)
		switch {
		case ferr != nil && Internal(ferr):
			t.Fatalf("FullAttack(%q): %v", data, ferr)
		case ferr == nil && !json.Valid(out):
			t.Fatalf("FullAttack(%q) = %s, not JSON", data, out)
		case ferr != nil && ferr.Step && err != nil:
			t.Fatalf("FullAttack(%q): a decode error about a step: %v", data, ferr)
		}
	})
}
