package fullattack_test

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	fa "github.com/aoekit/aoekit/core/fullattack"
)

// A reference model of SPEC §9, written apart from the package and in another style: the
// budgets are counted in a log of the attacks made so far, the iterative attacks come from the
// SRD's thresholds (+6, +11, +16) and the penalties from a copy of the SRD table. It assumes the
// request's combatant and declarations are valid (randomRequest makes them so) and checks a
// step in the order Plan documents.

type refModel struct {
	req     *fa.Request
	hands   []string
	held    map[string]fa.Item
	twin    map[string]string // the other hand of a two-handed or double item
	log     []string          // budgets of the attacks made: "primary", "off:<hand>", "extra", "natural:<id>"
	natHand map[string]bool   // hands whose natural weapon attacked
	wpnHand map[string]bool   // hands that made a weapon attack
	pair    []int             // the two-weapon penalties, once judged
}

func refHas(req *fa.Request, f fa.Feat) bool { return slices.Contains(req.Feats, f) }

// refPrimaryCount: the SRD gives an additional attack at +6, +11 and +16 base attack bonus.
func refPrimaryCount(bab int) int {
	n := 1
	for _, at := range []int{6, 11, 16} {
		if bab >= at {
			n++
		}
	}
	return n
}

func refOffCount(req *fa.Request) int {
	n := 1
	if refHas(req, fa.FeatImprovedTwoWeaponFighting) || refHas(req, fa.FeatGreaterTwoWeaponFighting) {
		n++
	}
	if refHas(req, fa.FeatGreaterTwoWeaponFighting) {
		n++
	}
	return n
}

// The SRD's Two-Weapon Fighting Penalties, by {feat, off-hand weapon light}.
var refTable = map[[2]bool][]int{
	{false, false}: {-6, -10},
	{false, true}:  {-4, -8},
	{true, false}:  {-4, -4},
	{true, true}:   {-2, -2},
}

func (m *refModel) count(budget string) int {
	n := 0
	for _, b := range m.log {
		if b == budget {
			n++
		}
	}
	return n
}

func (m *refModel) index(hand string) int { return slices.Index(m.hands, hand) }

func (m *refModel) anyWeapon() bool {
	for _, b := range m.log {
		if b == "primary" || b == "extra" || (len(b) > 4 && b[:4] == "off:") {
			return true
		}
	}
	return false
}

func (m *refModel) clone() *refModel {
	c := *m
	c.held = maps(m.held)
	c.twin = maps(m.twin)
	c.natHand = maps(m.natHand)
	c.wpnHand = maps(m.wpnHand)
	c.log = slices.Clone(m.log)
	c.pair = slices.Clone(m.pair)
	return &c
}

func maps[V any](in map[string]V) map[string]V {
	out := map[string]V{}
	for k, v := range in {
		out[k] = v
	}
	return out
}

func newRef(req *fa.Request) *refModel {
	m := &refModel{req: req, hands: req.Hands, held: map[string]fa.Item{}, twin: map[string]string{},
		natHand: map[string]bool{}, wpnHand: map[string]bool{}}
	if m.hands == nil {
		m.hands = []string{"main", "off"}
	}
	for h, it := range req.Holding {
		m.held[h] = it
		if it.Kind == fa.KindTwoHanded || it.Kind == fa.KindDouble {
			for o, ot := range req.Holding {
				if o != h && ot.ID == it.ID {
					m.twin[h] = o
				}
			}
		}
	}
	return m
}

func refItemOK(it *fa.Item) bool {
	if it.ID == "" || len(it.ID) > 64 {
		return false
	}
	if !slices.Contains([]fa.Kind{fa.KindLight, fa.KindOneHanded, fa.KindTwoHanded, fa.KindDouble, fa.KindLightShield, fa.KindHeavyShield}, it.Kind) {
		return false
	}
	switch it.Ranged {
	case "":
		return true
	case fa.RangedProjectile, fa.RangedThrown:
		return it.Kind == fa.KindLight || it.Kind == fa.KindOneHanded || it.Kind == fa.KindTwoHanded
	}
	return false
}

func (m *refModel) price(ps *fa.PricedStep, seq, tw, nat int) {
	p := fa.Parts{Sequence: seq, TwoWeapon: tw, Natural: nat}
	if m.req.RapidShot {
		p.RapidShot = -2
	}
	b := p.Sequence + p.TwoWeapon + p.RapidShot + p.Natural
	ps.Bonus, ps.Parts = &b, &p
}

func (m *refModel) natural(id string) (fa.Natural, bool) {
	for _, n := range m.req.Natural {
		if n.ID == id {
			return n, true
		}
	}
	return fa.Natural{}, false
}

// step plays st; code "" when it is legal.
func (m *refModel) step(st fa.Step) (fa.PricedStep, fa.Code) {
	kinds := 0
	for _, s := range []string{st.Attack, st.Natural, st.Drop, st.Draw} {
		if s != "" {
			kinds++
		}
	}
	if kinds != 1 || (st.Attack == "" && (st.Head != 0 || st.Extra || st.Throw)) || (st.Draw == "" && (len(st.Hands) > 0 || st.Item != nil)) {
		return fa.PricedStep{}, fa.CodeBadRequest
	}
	req := m.req
	switch {
	case st.Attack != "":
		h := st.Attack
		if m.index(h) < 0 {
			return fa.PricedStep{}, fa.CodeBadRequest
		}
		it, has := m.held[h]
		if has && it.Kind == fa.KindDouble {
			if st.Head != 1 && st.Head != 2 {
				return fa.PricedStep{}, fa.CodeBadRequest
			}
		} else if st.Head != 0 {
			return fa.PricedStep{}, fa.CodeBadRequest
		}
		if st.Extra && !req.RapidShot {
			return fa.PricedStep{}, fa.CodeNotDeclared
		}
		weaponHands := []string{h}
		if o, ok := m.twin[h]; ok && has {
			weaponHands = append(weaponHands, o)
		}
		for _, x := range weaponHands {
			if m.natHand[x] {
				return fa.PricedStep{}, fa.CodeHandBusy
			}
		}
		if st.Throw && !(has && it.Ranged == fa.RangedThrown) {
			return fa.PricedStep{}, fa.CodeNotRanged
		}
		if st.Extra && !(has && (it.Ranged == fa.RangedProjectile || (it.Ranged == fa.RangedThrown && st.Throw))) {
			return fa.PricedStep{}, fa.CodeNotRanged
		}
		// Which budget, and which penalty (0 primary, 1 off).
		budget, pen := "primary", 0
		twoHanded := has && it.Kind == fa.KindTwoHanded
		switch {
		case st.Extra:
			budget = "extra"
			if m.index(h) != 0 && !twoHanded {
				pen = 1
			}
		case !req.TwoWeapon, twoHanded, has && it.Kind == fa.KindDouble && st.Head == 1:
		case has && it.Kind == fa.KindDouble:
			o := m.twin[h]
			first := h
			if m.index(h) == 0 || (m.index(o) != 0 && m.index(o) < m.index(h)) {
				first = o
			}
			budget, pen = "off:"+first, 1
		case m.index(h) != 0:
			budget, pen = "off:"+h, 1
		}
		made := m.count(budget)
		var seq int
		switch {
		case budget == "extra":
			if made >= 1 {
				return fa.PricedStep{}, fa.CodeNoAttackLeft
			}
			seq = req.BAB
		case budget == "primary":
			if made >= refPrimaryCount(req.BAB) {
				return fa.PricedStep{}, fa.CodeNoAttackLeft
			}
			seq = req.BAB - 5*made
		default:
			if made >= refOffCount(req) {
				return fa.PricedStep{}, fa.CodeNoAttackLeft
			}
			seq = req.BAB - 5*made
		}
		if m.pair == nil {
			first, firstHas := m.held[m.hands[min(1, len(m.hands)-1)]]
			light := !firstHas || first.Kind == fa.KindLight || first.Kind == fa.KindLightShield || first.Kind == fa.KindDouble
			feat := refHas(req, fa.FeatTwoWeaponFighting) || refHas(req, fa.FeatImprovedTwoWeaponFighting) || refHas(req, fa.FeatGreaterTwoWeaponFighting)
			m.pair = refTable[[2]bool{feat, light}]
		}
		tw := 0
		if req.TwoWeapon {
			tw = m.pair[pen]
		}
		ps := fa.PricedStep{Attack: h, Head: st.Head, Extra: st.Extra, Throw: st.Throw, With: "unarmed"}
		if has {
			ps.With = it.ID
		}
		ps.As = map[string]fa.As{"primary": fa.AsPrimary, "extra": fa.AsExtra}[budget]
		if ps.As == "" {
			ps.As = fa.AsOff
		}
		m.price(&ps, seq, tw, 0)
		m.log = append(m.log, budget)
		for _, x := range weaponHands {
			m.wpnHand[x] = true
		}
		if st.Throw {
			m.release(h)
		}
		return ps, ""

	case st.Natural != "":
		n, ok := m.natural(st.Natural)
		if !ok {
			return fa.PricedStep{}, fa.CodeBadRequest
		}
		if m.count("natural:"+n.ID) > 0 {
			return fa.PricedStep{}, fa.CodeNoAttackLeft
		}
		if n.Hand != "" {
			if _, has := m.held[n.Hand]; has || m.wpnHand[n.Hand] {
				return fa.PricedStep{}, fa.CodeHandBusy
			}
			m.natHand[n.Hand] = true
		}
		m.log = append(m.log, "natural:"+n.ID)
		ps := fa.PricedStep{Natural: n.ID, With: n.ID, As: fa.AsNatural}
		m.priceNatural(&ps, n)
		return ps, ""

	case st.Drop != "":
		if m.index(st.Drop) < 0 {
			return fa.PricedStep{}, fa.CodeBadRequest
		}
		if _, has := m.held[st.Drop]; !has {
			return fa.PricedStep{}, fa.CodeBadRequest
		}
		m.release(st.Drop)
		return fa.PricedStep{Drop: st.Drop}, ""
	}

	if m.index(st.Draw) < 0 || st.Item == nil || !refItemOK(st.Item) {
		return fa.PricedStep{}, fa.CodeBadRequest
	}
	into := []string{st.Draw}
	if st.Item.Kind == fa.KindTwoHanded || st.Item.Kind == fa.KindDouble {
		if len(st.Hands) != 2 || m.index(st.Hands[0]) < 0 || m.index(st.Hands[1]) < 0 ||
			st.Hands[0] == st.Hands[1] || !slices.Contains(st.Hands, st.Draw) {
			return fa.PricedStep{}, fa.CodeBadRequest
		}
		into = st.Hands
	} else if len(st.Hands) != 0 {
		return fa.PricedStep{}, fa.CodeBadRequest
	}
	if !refHas(req, fa.FeatQuickDraw) {
		return fa.PricedStep{}, fa.CodeNeedsQuickDraw
	}
	for _, x := range into {
		if _, has := m.held[x]; has {
			return fa.PricedStep{}, fa.CodeHandBusy
		}
	}
	for _, x := range into {
		m.held[x] = *st.Item
	}
	if len(into) == 2 {
		m.twin[into[0]], m.twin[into[1]] = into[1], into[0]
	}
	it := *st.Item
	ps := fa.PricedStep{Draw: st.Draw, Item: &it}
	if len(st.Hands) > 0 {
		ps.Hands = slices.Clone(st.Hands)
	}
	return ps, ""
}

func (m *refModel) priceNatural(ps *fa.PricedStep, n fa.Natural) {
	nat := 0
	ps.Secondary = m.anyWeapon() || !n.Primary
	if ps.Secondary {
		nat = -5
		if refHas(m.req, fa.FeatMultiattack) {
			nat = -2
		}
	}
	m.price(ps, m.req.BAB, 0, nat)
}

func (m *refModel) release(h string) {
	if o, ok := m.twin[h]; ok {
		delete(m.held, o)
		delete(m.twin, o)
	}
	delete(m.held, h)
	delete(m.twin, h)
}

// refPlan plays a whole request: the priced steps and next, or the first illegal step's code and
// index.
func refPlan(req *fa.Request) (steps, next []fa.PricedStep, code fa.Code, at int) {
	m := newRef(req)
	for i, st := range req.Steps {
		ps, c := m.step(st)
		if c != "" {
			return nil, nil, c, i
		}
		steps = append(steps, ps)
	}
	// Natural attacks are priced by the whole full attack.
	for i := range steps {
		if steps[i].As == fa.AsNatural {
			n, _ := m.natural(steps[i].Natural)
			m.priceNatural(&steps[i], n)
		}
	}
	try := func(st fa.Step) {
		if ps, c := m.clone().step(st); c == "" {
			next = append(next, ps)
		}
	}
	for i, h := range m.hands {
		it, has := m.held[h]
		if o, ok := m.twin[h]; has && ok && m.index(o) < i {
			continue // listed under the first hand
		}
		if has && it.Kind == fa.KindDouble {
			try(fa.Step{Attack: h, Head: 1})
			try(fa.Step{Attack: h, Head: 2})
		} else {
			try(fa.Step{Attack: h})
		}
		if has && it.Ranged == fa.RangedProjectile {
			try(fa.Step{Attack: h, Extra: true})
		}
		if has && it.Ranged == fa.RangedThrown {
			try(fa.Step{Attack: h, Extra: true, Throw: true})
		}
	}
	for _, n := range req.Natural {
		try(fa.Step{Natural: n.ID})
	}
	return steps, next, "", 0
}

// The pool of random items; two-handed and double ones get a per-hand id suffix in holding.
var refPool = []fa.Item{longsword, shortsword, dagger, javelin, greatsword, longbow, handxbow, staff, buckler, heavyShield,
	{ID: "spear", Kind: fa.KindTwoHanded, Ranged: fa.RangedThrown}}

// randomRequest draws a request whose combatant and declarations are valid and whose steps are
// mostly, not always, legal.
func randomRequest(r *rand.Rand) *fa.Request {
	req := &fa.Request{BAB: r.IntN(21)}
	if r.IntN(5) == 0 {
		req.BAB = r.IntN(41)
	}
	for _, f := range []fa.Feat{fa.FeatTwoWeaponFighting, fa.FeatImprovedTwoWeaponFighting, fa.FeatGreaterTwoWeaponFighting,
		fa.FeatRapidShot, fa.FeatQuickDraw, fa.FeatMultiattack} {
		if r.IntN(2) == 0 {
			req.Feats = append(req.Feats, f)
		}
	}
	hands := []string{"main", "off"}
	if r.IntN(3) == 0 {
		hands = manyNames("h", 1+r.IntN(4))
		req.Hands = hands
	}
	req.TwoWeapon = len(hands) > 1 && r.IntN(2) == 0
	req.RapidShot = refHas(req, fa.FeatRapidShot) && r.IntN(2) == 0
	req.Holding = map[string]fa.Item{}
	for i := 0; i < len(hands); i++ {
		if r.IntN(3) == 0 {
			continue
		}
		it := refPool[r.IntN(len(refPool))]
		if it.Kind == fa.KindTwoHanded || it.Kind == fa.KindDouble {
			if i+1 >= len(hands) {
				continue
			}
			it.ID += "#" + strconv.Itoa(i)
			req.Holding[hands[i]], req.Holding[hands[i+1]] = it, it
			i++
			continue
		}
		req.Holding[hands[i]] = it
	}
	for i := range r.IntN(4) {
		n := fa.Natural{ID: "nat" + strconv.Itoa(i), Primary: r.IntN(2) == 0}
		if r.IntN(2) == 0 {
			n.Hand = hands[r.IntN(len(hands))]
		}
		req.Natural = append(req.Natural, n)
	}
	hand := func() string {
		if r.IntN(30) == 0 {
			return "tail"
		}
		return hands[r.IntN(len(hands))]
	}
	// Half the plans are guided by the reference model, mostly legal steps, so that long legal
	// plans are common; the others are drawn blind.
	var m *refModel
	if r.IntN(2) == 0 {
		m = newRef(req)
	}
	for range r.IntN(16) {
		var st fa.Step
		if m != nil && r.IntN(10) != 0 {
			if legal := m.legalSteps(r); len(legal) > 0 {
				st = legal[r.IntN(len(legal))]
				m.step(st)
				req.Steps = append(req.Steps, st)
				continue
			}
		}
		switch k := r.IntN(100); {
		case k < 50:
			st.Attack = hand()
			if it, ok := req.Holding[st.Attack]; ok && it.Kind == fa.KindDouble || r.IntN(10) == 0 {
				st.Head = r.IntN(3)
				if r.IntN(10) != 0 {
					st.Head = 1 + r.IntN(2)
				}
			}
			st.Extra = r.IntN(4) == 0
			st.Throw = r.IntN(4) == 0
		case k < 62:
			st.Natural = "nat" + strconv.Itoa(r.IntN(4))
		case k < 77:
			st.Drop = hand()
		case k < 97:
			st.Draw = hand()
			it := refPool[r.IntN(len(refPool))]
			if r.IntN(40) == 0 {
				it.Kind = "huge"
			}
			st.Item = &it
			if it.Kind == fa.KindTwoHanded || it.Kind == fa.KindDouble {
				st.Hands = []string{st.Draw, hand()}
				if r.IntN(2) == 0 {
					st.Hands[0], st.Hands[1] = st.Hands[1], st.Hands[0]
				}
			} else if r.IntN(20) == 0 {
				st.Hands = []string{st.Draw}
			}
		default: // malformed
			if r.IntN(2) == 0 {
				st = fa.Step{Attack: hand(), Drop: hand()}
			}
		}
		if m != nil {
			m.step(st)
		}
		req.Steps = append(req.Steps, st)
	}
	return req
}

// legalSteps lists steps the model accepts now: every attack and natural attack (with throws),
// every drop, and a random draw into each empty hand or pair of empty hands.
func (m *refModel) legalSteps(r *rand.Rand) []fa.Step {
	var cands []fa.Step
	for _, h := range m.hands {
		cands = append(cands, fa.Step{Attack: h}, fa.Step{Attack: h, Head: 1}, fa.Step{Attack: h, Head: 2},
			fa.Step{Attack: h, Throw: true}, fa.Step{Attack: h, Extra: true}, fa.Step{Attack: h, Extra: true, Throw: true},
			fa.Step{Drop: h})
		it := refPool[r.IntN(len(refPool))]
		st := fa.Step{Draw: h, Item: &it}
		if it.Kind == fa.KindTwoHanded || it.Kind == fa.KindDouble {
			st.Hands = []string{h, m.hands[r.IntN(len(m.hands))]}
		}
		cands = append(cands, st)
	}
	for _, n := range m.req.Natural {
		cands = append(cands, fa.Step{Natural: n.ID})
	}
	var legal []fa.Step
	for _, st := range cands {
		if _, c := m.clone().step(st); c == "" {
			legal = append(legal, st)
		}
	}
	return legal
}

// TestReference_9 compares Plan with the reference model on random plans: the same prices,
// the same next, or the same first illegal step and code.
func TestReference_9(t *testing.T) {
	n := 20000
	if testing.Short() {
		n = 2000
	}
	codes := map[fa.Code]int{}
	attacks := 0
	for seed := range 4 {
		r := rand.New(rand.NewPCG(uint64(seed), 9))
		for i := range n / 4 {
			req := randomRequest(r)
			wantSteps, wantNext, wantCode, wantAt := refPlan(req)
			res, err := fa.Plan(req)
			label := "seed " + strconv.Itoa(seed) + " plan " + strconv.Itoa(i)
			if wantCode != "" {
				var e *fa.Error
				if !errors.As(err, &e) || e.Code != wantCode || e.At != wantAt {
					t.Fatalf("%s: %s\nPlan: %v (%+v)\nreference: %s at %d", label, dump(req), err, res, wantCode, wantAt)
				}
				codes[wantCode]++
				continue
			}
			if err != nil {
				t.Fatalf("%s: %s\nPlan: %v, reference: legal", label, dump(req), err)
			}
			codes["ok"]++
			attacks += len(res.Steps)
			if got, want := dump(res.Steps), dump(orEmpty(wantSteps)); got != want {
				t.Fatalf("%s: %s\nsteps: %s\nwant:  %s", label, dump(req), got, want)
			}
			if got, want := dump(res.Next), dump(orEmpty(wantNext)); got != want {
				t.Fatalf("%s: %s\nnext: %s\nwant: %s", label, dump(req), got, want)
			}
		}
	}
	t.Logf("outcomes: %v; %d steps in the legal plans", codes, attacks)
	for _, c := range []fa.Code{"ok", fa.CodeNoAttackLeft, fa.CodeHandBusy, fa.CodeNeedsQuickDraw, fa.CodeNotRanged, fa.CodeNotDeclared, fa.CodeBadRequest} {
		if codes[c] < n/1000 {
			t.Errorf("only %d random plans ended %s: the generator misses a case", codes[c], c)
		}
	}
}

func orEmpty(s []fa.PricedStep) []fa.PricedStep {
	if s == nil {
		return []fa.PricedStep{}
	}
	return s
}

func dump(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return err.Error()
	}
	return string(b)
}
