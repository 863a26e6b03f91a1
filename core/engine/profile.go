package engine

import (
	"github.com/aoekit/aoekit/core/internal/num"
	"github.com/aoekit/aoekit/core/template"
)

// profile is the request's rule set and its columns of SPEC §6, after the request's
// overrides. It is the one place a request's rule set is decided: every rule-dependent step
// (the origin's line of effect, §3.1; the kind of line of effect, §5.3; how obstacles shape
// the area, §2.1, §3.2, §4.3; the cover grades, §5.5) reads it, never the template's own.
type profile struct {
	rules    template.Rules // the rule set: the request's "rules", or the template's own
	barriers bool           // obstacles shape the area (§3.2 or §4.3, by rules)
	cover    CoverRules     // tdgs, drawsteel or none
	apply    bool           // full cover leaves a target unaffected
}

// profileOf decides the request's rule set and its columns. The rule set is the request's
// "rules" when given, otherwise the template's own: a template's notation belongs to one rule
// set (Draw Steel's "3 burst", the 50 % circle's "circle 3"), and "tdgs (default)" of SPEC §6
// and CONTRACT is what a template without one takes (a template object without "rules"). The
// request's barriers, cover and applyCover then override one column each ("A request may
// override each column").
func profileOf(req *Request, s template.Shape) (profile, *Error) {
	r := s.Rules()
	if req.Rules != "" {
		var ok bool
		if r, ok = template.ParseRules(string(req.Rules)); !ok {
			return profile{}, newError(CodeBadRequest, "rules: expected tdgs, drawsteel, circle50, dnd5e or pf2e, got "+num.Quote(string(req.Rules)))
		}
	}
	p := profile{rules: r}
	switch r {
	case template.TDGS:
		p.cover, p.apply = CoverTDGS, true
	case template.DrawSteel:
		p.barriers, p.cover, p.apply = true, CoverDrawSteel, true
	case template.Circle50Rules:
		p.barriers, p.cover = true, CoverTDGS
	}
	if req.Barriers != nil {
		p.barriers = *req.Barriers
	}
	if req.Cover != "" {
		switch req.Cover {
		case CoverTDGS, CoverDrawSteel, CoverNone:
			p.cover = req.Cover
		default:
			return profile{}, newError(CodeBadRequest, "cover: expected tdgs, drawsteel or none, got "+num.Quote(string(req.Cover)))
		}
	}
	if req.ApplyCover != nil {
		p.apply = *req.ApplyCover
	}
	return p, nil
}

// cornerLines reports whether line of effect runs corner to corner (SPEC §5.3, Draw Steel):
// for the origin square (§3.1) and the cells of an area (§3.2). Otherwise it runs centre to
// centre, as TDGS's; the 50 % circle, whose cover is judged as TDGS's (§6), sees as TDGS does.
func (p profile) cornerLines() bool { return p.rules == template.DrawSteel }

// floods reports whether obstacles shape the area by §4.3's fill (the 50 % circle's rule set)
// rather than by §3.2's line of effect, where they shape it at all (barriers).
func (p profile) floods() bool { return p.rules == template.Circle50Rules }
