package engine

import (
	"slices"

	"github.com/aoekit/aoekit/core/cover"
	"github.com/aoekit/aoekit/core/internal/num"
)

// checkTrait reports a smart-targeting trait that SPEC §7.3 does not know, whether or not
// anything is in the area.
func checkTrait(trait Trait) *Error {
	switch trait {
	case "", TraitNone, TraitAlliesExcluded, TraitEnemiesOnly, TraitSelective:
		return nil
	}
	return newError(CodeBadRequest, "targeting.trait: expected none, alliesExcluded, enemiesOnly or selective, got "+num.Quote(string(trait)))
}

// exclude takes the cells of targeting.excludeCells out of the area (SPEC §7.3): those of
// set's shape become stExcluded.
func exclude(set *cellSet, cells [][3]int) *Error {
	if len(cells) > MaxExclude {
		return newError(CodeTooLarge, "targeting.excludeCells: past the limit of "+num.Itoa(MaxExclude))
	}
	for _, p := range cells {
		if c := cellOf(p); set.get(c) != 0 {
			set.set(c, stExcluded)
		}
	}
	return nil
}

// allowed applies the smart-targeting trait (SPEC §7.3, checked by checkTrait) to an entity.
func (sc *scene) allowed(e *entity, isCaster bool) bool {
	return permitted(&sc.req.Targeting, sc.sel, sc.caster, e, isCaster)
}

// permitted is the targeting filter of SPEC §7.3 for entity e (the caster itself when
// isCaster), t's ids looked up in sel.
func permitted(t *Targeting, sel *selection, caster, e *entity, isCaster bool) bool {
	if isCaster && t.ExcludeCaster {
		return false
	}
	side := ""
	if caster != nil {
		side = caster.tok.Side
	}
	switch t.Trait {
	case TraitAlliesExcluded:
		return !isCaster && e.tok.Side != side
	case TraitEnemiesOnly:
		return !isCaster && e.tok.Side != "" && e.tok.Side != side
	case TraitSelective:
		return sel.has(t.IDs, e.tok.ID)
	}
	return true
}

// A selection is the set of a selective trait's ids (SPEC §7.3), made at the first entity it
// is asked about: a look-up an entity rather than a scan of the list (10 000 tokens and 129 938
// ids took 20 s natively, 44 s in the module). Short lists are scanned.
type selection struct{ set map[string]struct{} }

func (s *selection) has(ids []string, id string) bool {
	if len(ids) <= 16 {
		return slices.Contains(ids, id)
	}
	if s.set == nil {
		s.set = make(map[string]struct{}, len(ids))
		for _, k := range ids {
			s.set[k] = struct{}{}
		}
	}
	_, ok := s.set[id]
	return ok
}

// targets lists the entities whose space meets the shape of set (SPEC §7.1): the caster
// first, then the candidate tokens in request order, each judged by target and, when the
// request asks, rolled for (§7.4). Past the request's work limit (SPEC §8.3) the list stops
// short and sc.w.err says why.
func (sc *scene) targets(set *cellSet) []Target {
	out := make([]Target, 0, len(sc.tokens)+1)
	var g *rng
	if sc.req.Resolve != nil {
		g = &rng{s: sc.req.Resolve.Seed}
	}
	var segs []cover.Segment // storage reused by each target's cover check
	add := func(e *entity, isCaster bool) {
		out = append(out, Target{})
		t := &out[len(out)-1]
		if !sc.target(t, set, e, isCaster, &segs) {
			out = out[:len(out)-1]
			return
		}
		if g != nil && t.Affected {
			r := sc.req.Resolve
			t.Roll = roll(g, r.Stat, r.Defence[t.ID], t.Bonus, r.Modifiers, r.Luck)
		}
	}
	if sc.caster != nil {
		add(sc.caster, true)
	}
	for i := range sc.tokens {
		add(&sc.tokens[i], false)
	}
	return out
}

// target fills in *t for entity e when the shape of set meets its space, and reports whether
// it does: in the area or cut off by a barrier (SPEC §7.1), its cover from the area's source
// (§5.4, §5.5, graded as the profile says), and whether it is affected (§7.2). The cover
// check keeps its segments in *segs, storage the next target's check reuses. The work of
// finding the space's cells in set, then of its cover, is charged before it is done (SPEC
// §8.3): past the limit, target reports false.
func (sc *scene) target(t *Target, set *cellSet, e *entity, isCaster bool, segs *[]cover.Segment) bool {
	const what = "the tokens in the area (SPEC §7.1, §5.4): use fewer or smaller tokens, or cover \"none\""
	if sc.w.charge(set.scan(e.space.Box(), nil), what) != nil {
		return false
	}
	state := set.best(e.space)
	if state == 0 {
		return false
	}
	*t = Target{ID: e.tok.ID, Cover: GradeNone, Lines: []Line{}}
	switch state {
	case stBarred:
		t.Reason = ReasonBarrier
		return true
	case stExcluded:
		t.Reason = ReasonTargeting
		return true
	}
	t.InArea = true
	ok := sc.allowed(e, isCaster)
	if n := corners(e.space, sc.at.src, false); sc.prof.cover != "none" {
		if sc.w.charge(sc.lineWork(sc.at.from, e.space, n)+n*lineCost, what) != nil {
			return false
		}
		r := cover.AppendFromPoint((*segs)[:0], sc.at.src, cover.Target{Space: e.space, Prone: e.tok.Prone}, &sc.solids.lines)
		*segs = r.Segments
		if sc.w.chargeLines(len(r.Segments)) != nil {
			return false
		}
		var g cover.Grade
		if sc.prof.cover == CoverDrawSteel {
			g = cover.DrawSteel(r.Blocked, r.Total())
		} else {
			g = cover.TDGS(r.Blocked, r.Total())
		}
		t.Cover, t.Blocked = Grade(g.Name), r.Blocked
		if sc.prof.apply {
			t.Bonus = g.Bonus
		}
		t.Lines = make([]Line, len(r.Segments))
		for i, sg := range r.Segments {
			t.Lines[i] = Line{From: sg.From.World(), To: sg.To.World(), Blocked: sg.Blocked}
		}
		if g.Full && sc.prof.apply && ok {
			t.Reason = ReasonCover
			return true
		}
	}
	if !ok {
		t.Reason = ReasonTargeting
		return true
	}
	t.Affected = true
	return true
}
