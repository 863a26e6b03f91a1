package engine

// Code is an error's code (CONTRACT errors).
type Code string

// The error codes.
const (
	CodeBadNotation    Code = "bad_notation"
	CodeBadRequest     Code = "bad_request"
	CodeOutOfRange     Code = "out_of_range"
	CodeNoLineOfEffect Code = "no_line_of_effect"
	CodeInvalidWall    Code = "invalid_wall"
	CodeNotStraight    Code = "not_straight"
	CodeTooLarge       Code = "too_large"
	// A full attack's rule violations (SPEC §9.8, FullAttack), by fullattack's codes of the same
	// names.
	CodeNoAttackLeft   Code = "no_attack_left"
	CodeHandBusy       Code = "hand_busy"
	CodeNeedsQuickDraw Code = "needs_quick_draw"
	CodeNotRanged      Code = "not_ranged"
	CodeNotDeclared    Code = "not_declared"
)

// An Error is a CONTRACT error: a code, a message for people and, for notation errors, the
// 1-based position in the text (At, 0 when there is none); for a full attack's error about a
// step, the step's 0-based index (At, with Step set).
type Error struct {
	Code    Code   `json:"code"`
	Message string `json:"message"`
	At      int    `json:"at,omitempty"`
	// Step marks At as a full attack's step index (FullAttack), which is on the wire even when it
	// is 0: wasm/wire writes "at" for it where omitempty would leave out a 0.
	Step bool `json:"-"`
	// Internal marks a failure of aoekit itself (a bug, HTTP 500) rather than of the request.
	// It is not on the wire: there an internal error is a bad_request whose message starts with
	// "internal error: " (wasm/wire.InternalError makes one).
	Internal bool `json:"-"`
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

// Rule reports whether the error is a rule violation (HTTP 422) rather than a bad request
// (HTTP 400): out of range, no line of effect, an invalid wall or a crooked line; an illegal
// step of a full attack (no attack left, a busy hand, a draw without Quick Draw, a throw or an
// extra shot of what is not ranged, an undeclared Rapid Shot).
func (e *Error) Rule() bool {
	switch e.Code {
	case CodeOutOfRange, CodeNoLineOfEffect, CodeInvalidWall, CodeNotStraight,
		CodeNoAttackLeft, CodeHandBusy, CodeNeedsQuickDraw, CodeNotRanged, CodeNotDeclared:
		return true
	}
	return false
}

// newError is never inlined: each inlined copy adds to the WebAssembly module (see num.Itoa).
//
//go:noinline
func newError(code Code, msg string) *Error { return &Error{Code: code, Message: msg} }
