package engine

import "github.com/aoekit/aoekit/core/fullattack"

// FullAttack prices a D&D 3.5 full attack (SPEC §9, CONTRACT fullAttack): each step's attack
// bonus and its parts, then every attack that could come next. It is fullattack.Plan with the
// engine's errors: an *Error whose Code is fullattack's code of the same name. An error about a
// step (an illegal step, or a malformed one) has At, the step's 0-based index, and Step set;
// one about the combatant, the declarations or the number of steps has neither.
func FullAttack(req *fullattack.Request) (*fullattack.Result, error) {
	res, err := fullattack.Plan(req)
	if err != nil {
		return nil, fullAttackError(err)
	}
	return res, nil
}

// fullAttackError is a full attack's error as an *Error: fullattack's codes are the engine's
// codes of the same names, its At −1 no At.
func fullAttackError(err error) *Error {
	e, ok := err.(*fullattack.Error)
	if !ok || e == nil {
		return newError(CodeBadRequest, err.Error())
	}
	out := newError(Code(e.Code), e.Message)
	if e.At >= 0 {
		out.At, out.Step = e.At, true
	}
	return out
}
