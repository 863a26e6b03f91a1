package engine

import (
	"github.com/aoekit/aoekit/core/cover"
	"github.com/aoekit/aoekit/core/internal/num"
	"github.com/aoekit/aoekit/core/los"
)

// Attack cover (SPEC §5.7, seed 004): what cover does a target have against one attacker's
// melee, reach or ranged attack? The request and result types, CoverRequest, Attacker and
// CoverResult, are in types.go with the others (CONTRACT cover).

// maxCoverWork bounds the work of one cover request (SPEC §8.3): an upper bound on the
// segments judged times the cells each may cross (about a third of a second of work at the
// bound). Large attackers and targets (size 2) anywhere within 1000 squares of each other,
// and Gargantuan ones (size 4) within 100, stay below it.
const maxCoverWork = 1 << 25

// Cover answers an attack-cover request (CONTRACT cover, SPEC §5.7). Errors are *Error.
func Cover(req *CoverRequest) (*CoverResult, error) {
	res, err := attackCover(req)
	if err != nil {
		return nil, err
	}
	return res, nil
}

// An attackRules grades an attack's segments under one rule set (SPEC §5.7's table).
type attackRules func(kind cover.Kind, blocked, total int) cover.Grade

func attackRulesOf(rules Rules) (attackRules, *Error) {
	switch rules {
	case "", RulesTDGS:
		return func(kind cover.Kind, blocked, total int) cover.Grade {
			if kind == cover.Melee {
				return cover.Grade{Name: "none"} // TDGS: no cover in melee
			}
			return cover.TDGS(blocked, total)
		}, nil
	case RulesDrawSteel:
		return func(_ cover.Kind, blocked, total int) cover.Grade { return cover.DrawSteel(blocked, total) }, nil
	case RulesDnD35:
		return func(_ cover.Kind, blocked, total int) cover.Grade { return cover.DnD35(blocked, total) }, nil
	}
	return nil, newError(CodeBadRequest, "rules: expected tdgs, drawsteel, dnd35, dnd5e or pf2e, got "+num.Quote(string(rules)))
}

func attackKindOf(attack AttackKind) (cover.Kind, *Error) {
	switch attack {
	case AttackMelee:
		return cover.Melee, nil
	case AttackReach:
		return cover.Reach, nil
	case AttackRanged:
		return cover.Ranged, nil
	}
	return 0, newError(CodeBadRequest, "attack: expected melee, reach or ranged, got "+num.Quote(string(attack)))
}

// attackCover validates req in field order (rules, attack, attacker, target, tokens,
// obstacles, walls), then checks the distance (an attacker inside its target is a bad request; a
// melee target must be adjacent, SPEC §5.7) and the size of the work (§8.3), reads the board
// around the two spaces and judges the target from the attacker's best cell.
func attackCover(req *CoverRequest) (*CoverResult, *Error) {
	if req == nil {
		return nil, newError(CodeBadRequest, "request is required")
	}
	r5, point := spreadRules(req.Rules)
	var grade attackRules
	var e *Error
	if !point {
		if grade, e = attackRulesOf(req.Rules); e != nil {
			return nil, e
		}
	}
	kind, e := attackKindOf(req.Attack)
	if e != nil {
		return nil, e
	}
	atok := req.Attacker.Token()
	att, e := entityOf(field("attacker"), &atok)
	if e != nil {
		return nil, e
	}
	tgt, e := entityOf(field("target"), &req.Target)
	if e != nil {
		return nil, e
	}
	if id := req.Target.ID; id != "" && id == atok.ID {
		return nil, newError(CodeBadRequest, "target.id: "+num.Quote(id)+" is also the attacker's id")
	}
	if e = checkTokens(req.Tokens, nil, nil); e != nil {
		return nil, e
	}
	for i := range req.Tokens {
		for _, o := range [2]struct{ id, whose string }{{atok.ID, "attacker's"}, {req.Target.ID, "target's"}} {
			if o.id != "" && req.Tokens[i].ID == o.id {
				return nil, newError(CodeBadRequest, label{"tokens", i}.String()+".id: "+num.Quote(o.id)+" is also the "+o.whose+" id")
			}
		}
	}
	w := att.space.Box().Union(tgt.space.Box())
	win := w.Grow(2)
	in, e := checkObstacles(req.Obstacles, &win)
	if e != nil {
		return nil, e
	}
	ws, e := checkWalls(req.Walls, &win)
	if e != nil {
		return nil, e
	}
	if e = oneWay(req.Walls, string(req.Rules)+" attack cover"); e != nil && !point {
		return nil, e
	}
	switch d := att.space.Dist(tgt.space); {
	case d == 0:
		return nil, newError(CodeBadRequest, "target: its space overlaps the attacker's; an attacker cannot attack from inside its target")
	case kind == cover.Melee && d != 1:
		return nil, newError(CodeOutOfRange, "target is "+num.Itoa(d)+" squares from the attacker; a melee attack needs adjacent spaces (distance 1)")
	}
	if point {
		return pointAttack(req, r5, att, tgt, terrainOf(indexObstacles(req.Obstacles, in), ws))
	}
	standing := !req.Attacker.Flying
	// Each segment crosses at most as many cells as the box of the two spaces is long, wide
	// and high together, and is tested against the walls near it.
	solids := terrainOf(indexObstacles(req.Obstacles, in), ws)
	steps := int64(w.Max.X-w.Min.X) + int64(w.Max.Y-w.Min.Y) + int64(w.Max.Z-w.Min.Z) + 3 +
		int64(solids.walls.Cost(int64(w.Max.X-w.Min.X+1)*los.Unit, int64(w.Max.Y-w.Min.Y+1)*los.Unit))
	limit := int64(maxCoverWork) / steps
	if n := cover.SegmentBound(kind, att.space, tgt.space, standing, limit); n > limit {
		return nil, newError(CodeTooLarge, "attacker: judging this attack's cover would cross more than "+num.Itoa(maxCoverWork)+
			" cells (spaces too large or too far apart)")
	}
	r, from, ok := cover.FromSpace(kind, att.space, cover.Target{Space: tgt.space, Prone: req.Target.Prone}, standing, solids)
	if !ok {
		return nil, &Error{Code: CodeBadRequest, Message: "internal error: no attacker cell to judge cover from", Internal: true}
	}
	g := grade(kind, r.Blocked, r.Total())
	res := &CoverResult{Grade: Grade(g.Name), Bonus: g.Bonus, Blocked: r.Blocked, Total: r.Total(),
		LineOfEffect: r.Blocked < r.Total(), From: cell32(from), Lines: make([]Line, len(r.Segments))}
	for i, sg := range r.Segments {
		res.Lines[i] = Line{From: sg.From.World(), To: sg.To.World(), Blocked: sg.Blocked}
	}
	return res, nil
}
