package engine

import (
	"github.com/aoekit/aoekit/core/grid"
	"github.com/aoekit/aoekit/core/template"
)

// Evaluate answers an evaluate request (CONTRACT evaluate). Errors are *Error.
func Evaluate(req *Request) (*Result, error) { return EvaluateContext(nil, req) }

// EvaluateContext is Evaluate watching ctx (a context.Context, or nil: never): when ctx is
// done it stops, within some 65 536 steps of work (see MaxWork), with a too_large error whose
// message is "cancelled: " and ctx.Err()'s text.
func EvaluateContext(ctx Context, req *Request) (*Result, error) {
	res, err := evaluate(ctx, req)
	if err != nil {
		return nil, err
	}
	return res, nil
}

// evaluate answers req in the order of SPEC §2.10: validate it and place the template, read
// the board around the area, check the placement, shape the area, judge the targets.
func evaluate(ctx Context, req *Request) (*Result, *Error) { return evaluateOn(ctx, req, nil) }

// evaluateOn is evaluate with the board of on when it is not nil (a Scene's evaluate): the
// request then carries no board, and the scene's, validated and indexed before, is read.
func evaluateOn(ctx Context, req *Request, on *Scene) (*Result, *Error) {
	if req != nil {
		if r, ok := pointRules(req); ok {
			return evaluatePoint(ctx, req, on, r)
		}
	}
	s, e := setupOf(req, on)
	if e != nil {
		return nil, e
	}
	if s.w.ctx = ctx; s.w.stop(1 << 16) {
		return nil, s.w.err
	}
	return s.answer(s.window())
}

// answer evaluates the setup with the board read in v.
func (s *setup) answer(v view) (*Result, *Error) {
	sc, e := s.sceneIn(v)
	if e != nil {
		return nil, e
	}
	if e = sc.checkPlacement(); e != nil {
		return nil, e
	}
	set, e := sc.area()
	if e != nil {
		return nil, e
	}
	if e = exclude(set, sc.req.Targeting.ExcludeCells); e != nil {
		return nil, e
	}
	return sc.result(set)
}

// result is the answer for the area in set (CONTRACT evaluate).
func (sc *scene) result(set *cellSet) (*Result, *Error) {
	res := &Result{Template: templateOf(sc.shape), Origin: pointAt(sc.at.Origin), OriginVisible: true}
	if sc.req.Template.Object == nil {
		res.Template.Text = sc.req.Template.Text
	}
	if _, ok := sc.shape.(template.Rect); ok && sc.at.Orientation != grid.N {
		res.Template.Orientation = sc.at.Orientation.String()
	}
	if d, ok := sc.direction(); ok {
		res.Direction = d.String()
	}
	if sc.caster != nil && !sc.at.fromSelf {
		res.OriginVisible = sc.visible
	}
	res.Cells = sc.cellsIn(set)
	res.Count = len(res.Cells)
	res.Targets = sc.targets(set)
	return res, sc.w.err
}
