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
)

// An Error is a CONTRACT error: a code, a message for people and, for notation errors, the
// 1-based position in the text (At, 0 when there is none).
type Error struct {
	Code    Code   `json:"code"`
	Message string `json:"message"`
	At      int    `json:"at,omitempty"`
	// Internal marks a failure of aoekit itself (a bug, HTTP 500) rather than of the request.
	// It is not on the wire: there an internal error is a bad_request whose message starts with
	// "internal error: " (wasm/wire.InternalError makes one).
	Internal bool `json:"-"`
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

// Rule reports whether the error is a rule violation (HTTP 422) rather than a bad request
// (HTTP 400): out of range, no line of effect, an invalid wall or a crooked line.
func (e *Error) Rule() bool {
	switch e.Code {
	case CodeOutOfRange, CodeNoLineOfEffect, CodeInvalidWall, CodeNotStraight:
		return true
	}
	return false
}

// newError is never inlined: each inlined copy adds to the WebAssembly module (see num.Itoa).
//
//go:noinline
func newError(code Code, msg string) *Error { return &Error{Code: code, Message: msg} }
