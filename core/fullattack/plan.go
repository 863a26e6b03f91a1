package fullattack

import "github.com/aoekit/aoekit/core/internal/num"

// slot is a hand during a full attack (SPEC §9.1: holding slots, not weapons).
type slot struct {
	item    Item
	holds   bool
	partner int  // the other hand of the two-handed or double item held, −1 otherwise
	weapon  bool // the hand has made a weapon attack in this full attack
	natural bool // a natural weapon on the hand has attacked
}

// state is a full attack so far: what each hand holds and has done, and the budgets spent.
// It is a value: copying it is how `next` tries a step without playing it.
type state struct {
	slots   [MaxHands]slot
	primary int           // primary-sequence attacks made (§9.3)
	off     [MaxHands]int // attacks made from each off hand's sequence, by hand (§9.4)
	extra   bool          // Rapid Shot's extra attack made (§9.6)
	used    [MaxNatural]bool
	weapon  bool // some weapon attack has been made (§9.7)
	judged  bool // the two-weapon penalties below are set (§9.4)
	// The two-weapon penalties of primary-sequence and off-hand attacks, judged at the first
	// weapon attack.
	penPrimary, penOff int
}

// Plan prices a full attack (SPEC §9): each step in order, then every attack that could come
// next. A request whose combatant or declarations are wrong is refused with an *Error whose At
// is −1; a plan with an illegal step is refused with an *Error naming the first one, At its
// index. A step is checked in this order:
//
//   - its form (bad_request): exactly one of attack, natural, drop, draw; head, extra and throw
//     only on an attack (head 1 or 2 exactly when the hand holds a double weapon); hands and item
//     only on a draw; known hands and natural weapons; a valid item;
//   - an attack: not_declared (extra without rapidShot), hand_busy (one of the weapon's hands has
//     made a natural attack), not_ranged (a throw of what is not a thrown weapon; an extra attack
//     that neither shoots a projectile weapon nor throws a thrown one), no_attack_left (its
//     budget is spent);
//   - a natural attack: no_attack_left (it has attacked), hand_busy (its hand holds something or
//     has made a weapon attack);
//   - a drop: bad_request when the hand holds nothing;
//   - a draw: needs_quick_draw, then hand_busy (a hand it goes into holds something).
//
// The error is an *Error; Plan never panics, whatever the request.
func Plan(req *Request) (*Result, error) {
	p, e := newSetup(req)
	if e != nil {
		return nil, e
	}
	s := p.start
	res := &Result{Steps: make([]PricedStep, 0, len(req.Steps))}
	for i := range req.Steps {
		ps, e := p.apply(&s, i, &req.Steps[i])
		if e != nil {
			return nil, e
		}
		res.Steps = append(res.Steps, ps)
	}
	// §9.7: the steps are priced as a whole; a weapon attack anywhere makes every natural
	// attack secondary, those before it included.
	if s.weapon {
		for i := range res.Steps {
			if ps := &res.Steps[i]; ps.As == AsNatural {
				p.priceNatural(ps, p.naturalByID[ps.Natural], true)
			}
		}
	}
	res.Next = p.next(&s, len(req.Steps))
	return res, nil
}

// apply plays step st, the at-th, on s: its price, or why it is illegal (s is then unchanged).
func (p *setup) apply(s *state, at int, st *Step) (PricedStep, *Error) {
	w := label("steps", at)
	n := 0
	for _, set := range [...]bool{st.Attack != "", st.Natural != "", st.Drop != "", st.Draw != ""} {
		if set {
			n++
		}
	}
	if n != 1 {
		names := "none of them"
		if n > 1 {
			names = num.Itoa(n) + " of them"
		}
		return PricedStep{}, newError(CodeBadRequest, at, w+": a step is exactly one of attack, natural, drop and draw, and this one names "+names)
	}
	if st.Attack == "" && (st.Head != 0 || st.Extra || st.Throw) {
		return PricedStep{}, newError(CodeBadRequest, at, w+": head, extra and throw belong to an attack step")
	}
	if st.Draw == "" && (len(st.Hands) != 0 || st.Item != nil) {
		return PricedStep{}, newError(CodeBadRequest, at, w+": hands and item belong to a draw step")
	}
	switch {
	case st.Attack != "":
		return p.attack(s, at, w, st)
	case st.Natural != "":
		return p.naturalAttack(s, at, w, st)
	case st.Drop != "":
		return p.drop(s, at, w, st)
	}
	return p.draw(s, at, w, st)
}

// holds describes what hand h holds, for messages.
func (p *setup) holds(s *state, h int) string {
	if !s.slots[h].holds {
		return "hand " + quote(p.hands[h]) + " is empty"
	}
	return "hand " + quote(p.hands[h]) + " holds " + quote(s.slots[h].item.ID) + " (" + string(s.slots[h].item.Kind) + ")"
}

// attack plays {attack: hand} (SPEC §9.3, §9.4, §9.6).
func (p *setup) attack(s *state, at int, w string, st *Step) (PricedStep, *Error) {
	h, ok := p.index[st.Attack]
	if !ok {
		return PricedStep{}, newError(CodeBadRequest, at, w+".attack: "+quote(st.Attack)+" is not one of the hands")
	}
	sl := &s.slots[h]
	if sl.holds && sl.item.Kind == KindDouble {
		if st.Head != 1 && st.Head != 2 {
			return PricedStep{}, newError(CodeBadRequest, at, w+".head: the double weapon "+quote(sl.item.ID)+" attacks with head 1 or head 2, got "+num.Itoa(st.Head))
		}
	} else if st.Head != 0 {
		return PricedStep{}, newError(CodeBadRequest, at, w+".head: only a double weapon has heads, and "+p.holds(s, h))
	}
	if st.Extra && !p.rapid {
		return PricedStep{}, newError(CodeNotDeclared, at, w+".extra: Rapid Shot's extra attack needs rapidShot declared for the full attack")
	}
	// A two-handed or double weapon attacks with both its hands (§9.7).
	for _, x := range [2]int{h, sl.partner} {
		if x >= 0 && s.slots[x].natural {
			return PricedStep{}, newError(CodeHandBusy, at, w+": hand "+quote(p.hands[x])+" has made a natural attack and may not make a weapon attack after it")
		}
	}
	if st.Throw && (!sl.holds || sl.item.Ranged != RangedThrown) {
		return PricedStep{}, newError(CodeNotRanged, at, w+".throw: only a thrown weapon is thrown, and "+p.holds(s, h))
	}
	if st.Extra && (!sl.holds || (sl.item.Ranged != RangedProjectile && !st.Throw)) {
		if sl.holds && sl.item.Ranged == RangedThrown {
			return PricedStep{}, newError(CodeNotRanged, at, w+".extra: Rapid Shot's extra attack with the thrown weapon "+quote(sl.item.ID)+" throws it (throw: true)")
		}
		return PricedStep{}, newError(CodeNotRanged, at, w+".extra: Rapid Shot's extra attack shoots a projectile weapon or throws a thrown one, and "+p.holds(s, h))
	}

	ps := PricedStep{Attack: st.Attack, Head: st.Head, Extra: st.Extra, Throw: st.Throw, With: Unarmed}
	if sl.holds {
		ps.With = sl.item.ID
	}
	var pt Parts
	var off bool
	if st.Extra {
		// §9.6: at bab, outside both sequences, with the two-weapon penalty of the hand.
		if s.extra {
			return PricedStep{}, newError(CodeNoAttackLeft, at, w+".extra: Rapid Shot gives one extra attack, and it has been made")
		}
		s.extra = true
		ps.As, pt.Sequence = AsExtra, p.bab
		off = p.twoWeapon && h != 0 && !(sl.holds && sl.item.Kind == KindTwoHanded)
	} else {
		var b int
		off, b = p.role(s, h, st.Head)
		if off {
			if s.off[b] >= p.offLen {
				return PricedStep{}, newError(CodeNoAttackLeft, at, w+": off hand "+quote(p.hands[b])+" has made its "+num.Itoa(p.offLen)+" off-hand attack(s) (§9.4)")
			}
			ps.As, pt.Sequence = AsOff, p.bab-5*s.off[b]
			s.off[b]++
		} else {
			if s.primary >= len(p.primary) {
				return PricedStep{}, newError(CodeNoAttackLeft, at, w+": the primary sequence's "+num.Itoa(len(p.primary))+" attack(s) at bab "+num.Itoa(p.bab)+" have been made (§9.3)")
			}
			ps.As, pt.Sequence = AsPrimary, p.primary[s.primary]
			s.primary++
		}
	}
	if !s.judged {
		s.judged = true
		s.penPrimary, s.penOff = p.penalties(s)
	}
	if p.twoWeapon {
		pt.TwoWeapon = s.penPrimary
		if off {
			pt.TwoWeapon = s.penOff
		}
	}
	if p.rapid {
		pt.RapidShot = -2
	}
	setPrice(&ps, pt)

	s.weapon = true
	sl.weapon = true
	if sl.partner >= 0 {
		s.slots[sl.partner].weapon = true
	}
	if st.Throw {
		s.empty(h) // §9.2: a throw empties the throwing hand (both, for a two-handed weapon)
	}
	return ps, nil
}

// role is the budget of a non-extra weapon attack by hand h (SPEC §9.3, §9.4): off reports an
// off-hand attack, from off hand b's sequence. Without twoWeapon every weapon attack is a
// primary-sequence attack; with it, the primary hand, a double weapon's first head and a
// two-handed weapon make primary-sequence attacks, and an off hand's own weapon (or unarmed
// strike) and a double weapon's second head off-hand attacks. The second head draws on the
// sequence of the double weapon's first off hand in hand order.
func (p *setup) role(s *state, h, head int) (off bool, b int) {
	if !p.twoWeapon {
		return false, 0
	}
	sl := &s.slots[h]
	if sl.holds {
		switch sl.item.Kind {
		case KindTwoHanded:
			return false, 0
		case KindDouble:
			if head == 1 {
				return false, 0
			}
			b = h
			if b == 0 || (sl.partner > 0 && sl.partner < b) {
				b = sl.partner
			}
			return true, b
		}
	}
	return h != 0, h
}

// penalties is the pair of two-weapon penalties (SPEC §9.4, SRD table), judged by what the
// first off hand holds now: empty, a light weapon, a light shield or a double weapon is light.
func (p *setup) penalties(s *state) (primary, off int) {
	if !p.twoWeapon {
		return 0, 0
	}
	first := &s.slots[1]
	light := !first.holds || first.item.Kind == KindLight || first.item.Kind == KindLightShield || first.item.Kind == KindDouble
	switch {
	case p.twf && light:
		return -2, -2
	case p.twf:
		return -4, -4
	case light:
		return -4, -8
	}
	return -6, -10
}

// naturalAttack plays {natural: id} (SPEC §9.7).
func (p *setup) naturalAttack(s *state, at int, w string, st *Step) (PricedStep, *Error) {
	k, ok := p.naturalByID[st.Natural]
	if !ok {
		return PricedStep{}, newError(CodeBadRequest, at, w+".natural: "+quote(st.Natural)+" is not one of the natural weapons")
	}
	if s.used[k] {
		return PricedStep{}, newError(CodeNoAttackLeft, at, w+": the natural weapon "+quote(st.Natural)+" has made its one attack of the full attack (§9.7)")
	}
	if h := p.naturalHand[k]; h >= 0 {
		if s.slots[h].holds {
			return PricedStep{}, newError(CodeHandBusy, at, w+": the natural weapon "+quote(st.Natural)+" is on a hand that holds something: "+p.holds(s, h))
		}
		if s.slots[h].weapon {
			return PricedStep{}, newError(CodeHandBusy, at, w+": the natural weapon "+quote(st.Natural)+" is on hand "+quote(p.hands[h])+", which has made a weapon attack")
		}
		s.slots[h].natural = true
	}
	s.used[k] = true
	ps := PricedStep{Natural: st.Natural, With: st.Natural, As: AsNatural}
	p.priceNatural(&ps, k, s.weapon)
	return ps, nil
}

// priceNatural prices natural weapon k (SPEC §9.7): at bab when primary and the full attack
// has no weapon attack, else secondary at bab−5 (bab−2 with Multiattack); −2 more with Rapid
// Shot (§9.6).
func (p *setup) priceNatural(ps *PricedStep, k int, weapon bool) {
	pt := Parts{Sequence: p.bab}
	ps.Secondary = weapon || !p.natural[k].Primary
	if ps.Secondary {
		pt.Natural = -5
		if p.multi {
			pt.Natural = -2
		}
	}
	if p.rapid {
		pt.RapidShot = -2
	}
	setPrice(ps, pt)
}

func setPrice(ps *PricedStep, pt Parts) {
	b := pt.Sequence + pt.TwoWeapon + pt.RapidShot + pt.Natural
	ps.Bonus, ps.Parts = &b, &pt
}

// empty empties hand h, and the other hand of a two-handed or double item in it.
func (s *state) empty(h int) {
	if o := s.slots[h].partner; o >= 0 {
		s.slots[o].item, s.slots[o].holds, s.slots[o].partner = Item{}, false, -1
	}
	s.slots[h].item, s.slots[h].holds, s.slots[h].partner = Item{}, false, -1
}

// drop plays {drop: hand} (SPEC §9.2).
func (p *setup) drop(s *state, at int, w string, st *Step) (PricedStep, *Error) {
	h, ok := p.index[st.Drop]
	if !ok {
		return PricedStep{}, newError(CodeBadRequest, at, w+".drop: "+quote(st.Drop)+" is not one of the hands")
	}
	if !s.slots[h].holds {
		return PricedStep{}, newError(CodeBadRequest, at, w+".drop: hand "+quote(st.Drop)+" holds nothing")
	}
	s.empty(h)
	return PricedStep{Drop: st.Drop}, nil
}

// draw plays {draw: hand, item} (SPEC §9.2).
func (p *setup) draw(s *state, at int, w string, st *Step) (PricedStep, *Error) {
	h, ok := p.index[st.Draw]
	if !ok {
		return PricedStep{}, newError(CodeBadRequest, at, w+".draw: "+quote(st.Draw)+" is not one of the hands")
	}
	if st.Item == nil {
		return PricedStep{}, newError(CodeBadRequest, at, w+".item: a draw names the item it draws")
	}
	it := *st.Item
	if e := checkItem(w+".item", at, &it); e != nil {
		return PricedStep{}, e
	}
	into := [2]int{h, -1}
	if twoHands(it.Kind) {
		if len(st.Hands) != 2 {
			return PricedStep{}, newError(CodeBadRequest, at, w+".hands: the "+string(it.Kind)+" item "+quote(it.ID)+" is drawn into two hands, hands: [a, b]")
		}
		for i, name := range st.Hands {
			x, ok := p.index[name]
			if !ok {
				return PricedStep{}, newError(CodeBadRequest, at, label(w+".hands", i)+": "+quote(name)+" is not one of the hands")
			}
			into[i] = x
		}
		if into[0] == into[1] {
			return PricedStep{}, newError(CodeBadRequest, at, w+".hands: names hand "+quote(st.Hands[0])+" twice")
		}
		if into[0] != h && into[1] != h {
			return PricedStep{}, newError(CodeBadRequest, at, w+".hands: does not name the draw hand "+quote(st.Draw))
		}
	} else if len(st.Hands) != 0 {
		return PricedStep{}, newError(CodeBadRequest, at, w+".hands: only a two-handed or double item is drawn into two hands")
	}
	if !p.quick {
		return PricedStep{}, newError(CodeNeedsQuickDraw, at, w+": drawing during a full attack needs Quick Draw (without it a draw is a move action, §9.2)")
	}
	for _, x := range into {
		if x >= 0 && s.slots[x].holds {
			return PricedStep{}, newError(CodeHandBusy, at, w+": "+p.holds(s, x)+"; drop it first")
		}
	}
	a, b := into[0], into[1]
	s.slots[a].item, s.slots[a].holds, s.slots[a].partner = it, true, b
	if b >= 0 {
		s.slots[b].item, s.slots[b].holds, s.slots[b].partner = it, true, a
	}
	ps := PricedStep{Draw: st.Draw, Item: &it}
	if len(st.Hands) != 0 {
		ps.Hands = append([]string(nil), st.Hands...)
	}
	return ps, nil
}

// next lists every attack that could be the at-th step, priced as if it were (SPEC §9.8): by
// hand order each hand's attack — head 1 then head 2 for a double weapon; a two-handed or double
// item once, under the first of its hands; a thrown weapon's as a melee strike, which a throw
// would cost the same — then that hand's Rapid Shot extra attack; then the natural weapons in
// request order.
func (p *setup) next(s *state, at int) []PricedStep {
	out := []PricedStep{}
	try := func(st Step) {
		c := *s
		if ps, e := p.apply(&c, at, &st); e == nil {
			out = append(out, ps)
		}
	}
	for h, name := range p.hands {
		sl := &s.slots[h]
		if sl.partner >= 0 && sl.partner < h {
			continue
		}
		if sl.holds && sl.item.Kind == KindDouble {
			try(Step{Attack: name, Head: 1})
			try(Step{Attack: name, Head: 2})
		} else {
			try(Step{Attack: name})
		}
		if sl.holds {
			switch sl.item.Ranged {
			case RangedProjectile:
				try(Step{Attack: name, Extra: true})
			case RangedThrown:
				try(Step{Attack: name, Extra: true, Throw: true})
			}
		}
	}
	for _, n := range p.natural {
		try(Step{Natural: n.ID})
	}
	return out
}
