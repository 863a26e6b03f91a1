package fullattack

// Code is an error code of a full attack (SPEC §9.8, §8.3).
type Code string

// The codes a full attack answers with. The first five are rule violations (the plan breaks a
// rule of §9); bad_request and too_large are bad requests (§8.3).
const (
	// An attack whose budget is spent: the hand's sequence, Rapid Shot's one extra attack, or a
	// natural weapon that has attacked (§9.3–§9.7).
	CodeNoAttackLeft Code = "no_attack_left"
	// A hand that cannot do this now: a draw into a hand that holds something, a natural weapon on
	// a hand that holds something or has made a weapon attack, a weapon attack by a hand after its
	// natural one (§9.2, §9.7).
	CodeHandBusy Code = "hand_busy"
	// A draw without the Quick Draw feat (§9.2).
	CodeNeedsQuickDraw Code = "needs_quick_draw"
	// A throw of something that is not a thrown weapon, or Rapid Shot's extra attack with
	// something that neither shoots a projectile nor is thrown (§9.2, §9.6).
	CodeNotRanged Code = "not_ranged"
	// Rapid Shot's extra attack in a full attack that does not declare rapidShot (§9.6).
	CodeNotDeclared Code = "not_declared"
	// A malformed request or step: an unknown name, a value out of range, a step that is not
	// exactly one of attack, natural, drop or draw.
	CodeBadRequest Code = "bad_request"
	// A list past its limit (MaxHands, MaxSteps, MaxNatural, MaxFeats).
	CodeTooLarge Code = "too_large"
)

// Error is a full attack's error: a code, a message for people naming what is wrong and where,
// and the step it is about.
//
// In Go, the fields mirror core/engine's Error (Code, Message, At), but At is the 0-based index
// of the first illegal step in `steps`, and −1 when the error is not about a step (the combatant,
// the declarations, the number of steps), so 0 is a real index. The doors answer with
// engine.FullAttack's *engine.Error: "at" for a step, 0 included, and none for −1.
type Error struct {
	//ts:type "no_attack_left" | "hand_busy" | "needs_quick_draw" | "not_ranged" | "not_declared" | "bad_request" | "too_large"
	Code    Code   `json:"code"`
	Message string `json:"message"`
	// The 0-based index of the step, or −1.
	At int `json:"at"`
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

// Rule reports whether the error is a rule violation of §9 (HTTP 422) rather than a bad request
// (HTTP 400): no_attack_left, hand_busy, needs_quick_draw, not_ranged, not_declared.
func (e *Error) Rule() bool {
	switch e.Code {
	case CodeNoAttackLeft, CodeHandBusy, CodeNeedsQuickDraw, CodeNotRanged, CodeNotDeclared:
		return true
	}
	return false
}

// newError is never inlined: each inlined copy adds to the WebAssembly module (see num.Itoa).
//
//go:noinline
func newError(code Code, at int, msg string) *Error {
	return &Error{Code: code, Message: msg, At: at}
}
