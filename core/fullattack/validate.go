package fullattack

import (
	"github.com/aoekit/aoekit/core/internal/num"
)

// setup is a validated request: the combatant, its declarations and the budgets they give.
type setup struct {
	bab                     int
	twf, improved, greater  bool // greater implies improved implies twf
	rapidFeat, quick, multi bool
	twoWeapon, rapid        bool
	hands                   []string
	natural                 []Natural
	naturalHand             []int // index of each natural weapon's hand, −1 for none
	primary                 []int // the primary sequence (§9.3)
	offLen                  int   // attacks in each off hand's sequence (§9.4)
	start                   state
	index, naturalByID      map[string]int // hand and natural weapon by name
}

var defaultHands = []string{"main", "off"}

// quote is a name in a message: quoted, or its length when it is too long to show (past
// num.MaxQuote bytes, MaxID's 64).
func quote(s string) string { return num.Quote(s) }

// checkID checks a hand name or an id: 1 … MaxID bytes.
func checkID(where, what, s string) *Error {
	if s == "" {
		return newError(CodeBadRequest, -1, where+": "+what+" is empty")
	}
	if len(s) > MaxID {
		return newError(CodeBadRequest, -1, where+": "+what+" is "+num.Itoa(len(s))+" bytes, past the limit of "+num.Itoa(MaxID))
	}
	return nil
}

// checkItem checks a held or drawn item (SPEC §9.1).
func checkItem(where string, at int, it *Item) *Error {
	if e := checkID(where+".id", "an item's id", it.ID); e != nil {
		e.At = at
		return e
	}
	switch it.Kind {
	case KindLight, KindOneHanded, KindTwoHanded, KindDouble, KindLightShield, KindHeavyShield:
	default:
		return newError(CodeBadRequest, at, where+".kind: expected light, oneHanded, twoHanded, double, lightShield or heavyShield, got "+quote(string(it.Kind)))
	}
	switch it.Ranged {
	case RangedNone:
	case RangedProjectile, RangedThrown:
		if it.Kind != KindLight && it.Kind != KindOneHanded && it.Kind != KindTwoHanded {
			return newError(CodeBadRequest, at, where+".ranged: a "+string(it.Kind)+" item cannot be "+string(it.Ranged)+" (only light, oneHanded and twoHanded weapons are ranged)")
		}
	default:
		return newError(CodeBadRequest, at, where+".ranged: expected projectile or thrown, got "+quote(string(it.Ranged)))
	}
	return nil
}

// twoHands reports whether an item is held in two hands.
func twoHands(k Kind) bool { return k == KindTwoHanded || k == KindDouble }

func label(list string, i int) string { return list + "[" + num.Itoa(i) + "]" }

// newSetup validates a request in the order of its fields (SPEC §9.1–§9.2); the steps are
// checked one by one as they are played.
func newSetup(req *Request) (*setup, *Error) {
	if req == nil {
		return nil, newError(CodeBadRequest, -1, "request is required")
	}
	p := &setup{bab: req.BAB, twoWeapon: req.TwoWeapon, rapid: req.RapidShot}
	if req.BAB < 0 || req.BAB > MaxBAB {
		return nil, newError(CodeBadRequest, -1, "bab: expected 0 … "+num.Itoa(MaxBAB)+", got "+num.Itoa(req.BAB))
	}

	if len(req.Feats) > MaxFeats {
		return nil, newError(CodeTooLarge, -1, "feats: "+num.Itoa(len(req.Feats))+" feats, past the limit of "+num.Itoa(MaxFeats))
	}
	for i, f := range req.Feats {
		switch f {
		case FeatTwoWeaponFighting:
			p.twf = true
		case FeatImprovedTwoWeaponFighting:
			p.twf, p.improved = true, true
		case FeatGreaterTwoWeaponFighting:
			p.twf, p.improved, p.greater = true, true, true
		case FeatRapidShot:
			p.rapidFeat = true
		case FeatQuickDraw:
			p.quick = true
		case FeatMultiattack:
			p.multi = true
		default:
			return nil, newError(CodeBadRequest, -1, label("feats", i)+": unknown feat "+quote(string(f))+
				" (expected twoWeaponFighting, improvedTwoWeaponFighting, greaterTwoWeaponFighting, rapidShot, quickDraw or multiattack)")
		}
	}

	p.hands = req.Hands
	if p.hands == nil {
		p.hands = defaultHands
	}
	if len(p.hands) == 0 {
		return nil, newError(CodeBadRequest, -1, "hands: a combatant needs at least one hand")
	}
	if len(p.hands) > MaxHands {
		return nil, newError(CodeTooLarge, -1, "hands: "+num.Itoa(len(p.hands))+" hands, past the limit of "+num.Itoa(MaxHands))
	}
	p.index = make(map[string]int, len(p.hands))
	for i, h := range p.hands {
		if e := checkID(label("hands", i), "a hand's name", h); e != nil {
			return nil, e
		}
		if j, dup := p.index[h]; dup {
			return nil, newError(CodeBadRequest, -1, label("hands", i)+": "+quote(h)+" is also hands["+num.Itoa(j)+"]")
		}
		p.index[h] = i
	}

	if len(req.Holding) > MaxHands {
		return nil, newError(CodeTooLarge, -1, "holding: "+num.Itoa(len(req.Holding))+" entries, past the limit of "+num.Itoa(MaxHands))
	}
	unknown, found := "", false // the least unknown hand, so that the message does not depend on map order
	for h := range req.Holding {
		if _, ok := p.index[h]; !ok && (!found || h < unknown) {
			unknown, found = h, true
		}
	}
	if found {
		return nil, newError(CodeBadRequest, -1, "holding: "+quote(unknown)+" is not one of the hands")
	}
	s := &p.start
	for i := range s.slots {
		s.slots[i].partner = -1
	}
	for i, h := range p.hands {
		it, ok := req.Holding[h]
		if !ok {
			continue
		}
		if e := checkItem("holding["+quote(h)+"]", -1, &it); e != nil {
			return nil, e
		}
		s.slots[i] = slot{item: it, holds: true, partner: -1}
	}
	for i, h := range p.hands {
		sl := &s.slots[i]
		if !sl.holds || !twoHands(sl.item.Kind) || sl.partner >= 0 {
			continue
		}
		count, other := 0, -1
		for j := range p.hands {
			if j != i && s.slots[j].holds && s.slots[j].item.ID == sl.item.ID {
				count++
				other = j
			}
		}
		if count != 1 {
			return nil, newError(CodeBadRequest, -1, "holding["+quote(h)+"]: the "+string(sl.item.Kind)+" item "+quote(sl.item.ID)+
				" must be held in exactly two hands, with the same id in both; it is in "+num.Itoa(count+1))
		}
		if s.slots[other].item != sl.item {
			return nil, newError(CodeBadRequest, -1, "holding["+quote(p.hands[other])+"]: "+quote(sl.item.ID)+" is held in "+quote(h)+
				" as another item (a two-handed or double item is the same item in both its hands)")
		}
		sl.partner, s.slots[other].partner = other, i
	}

	if len(req.Natural) > MaxNatural {
		return nil, newError(CodeTooLarge, -1, "natural: "+num.Itoa(len(req.Natural))+" natural weapons, past the limit of "+num.Itoa(MaxNatural))
	}
	p.natural = req.Natural
	p.naturalHand = make([]int, len(req.Natural))
	p.naturalByID = make(map[string]int, len(req.Natural))
	for i, n := range req.Natural {
		where := label("natural", i)
		if e := checkID(where+".id", "a natural weapon's id", n.ID); e != nil {
			return nil, e
		}
		if j, dup := p.naturalByID[n.ID]; dup {
			return nil, newError(CodeBadRequest, -1, where+".id: "+quote(n.ID)+" is also the id of natural["+num.Itoa(j)+"]")
		}
		p.naturalByID[n.ID] = i
		p.naturalHand[i] = -1
		if n.Hand != "" {
			h, ok := p.index[n.Hand]
			if !ok {
				return nil, newError(CodeBadRequest, -1, where+".hand: "+quote(n.Hand)+" is not one of the hands")
			}
			p.naturalHand[i] = h
		}
	}

	if req.TwoWeapon && len(p.hands) < 2 {
		return nil, newError(CodeBadRequest, -1, "twoWeapon: two-weapon fighting needs an off hand, and the combatant has one hand")
	}
	if req.RapidShot && !p.rapidFeat {
		return nil, newError(CodeBadRequest, -1, "rapidShot: declared without the rapidShot feat")
	}
	if len(req.Steps) > MaxSteps {
		return nil, newError(CodeTooLarge, -1, "steps: "+num.Itoa(len(req.Steps))+" steps, past the limit of "+num.Itoa(MaxSteps))
	}

	// §9.3: bab, bab−5, bab−10, bab−15, each while at least +1, the first always.
	p.primary = []int{p.bab}
	for b := p.bab - 5; b >= 1 && len(p.primary) < 4; b -= 5 {
		p.primary = append(p.primary, b)
	}
	// §9.4: bab, then bab−5 with Improved, bab−10 with Greater.
	p.offLen = 1
	if p.improved {
		p.offLen++
	}
	if p.greater {
		p.offLen++
	}
	return p, nil
}
