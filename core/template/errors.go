package template

import "errors"

// Sentinel errors; every error of this package wraps one of them (errors.Is).
var (
	ErrTooLarge    = errors.New("template: too large")
	ErrInvalid     = errors.New("template: invalid")
	ErrNotStraight = errors.New("template: not straight")
	ErrInvalidWall = errors.New("template: invalid wall")
)

// An Error is a template error with a message for people; Kind is one of the sentinels.
type Error struct {
	Kind error
	Msg  string
}

func (e *Error) Error() string { return e.Msg }
func (e *Error) Unwrap() error { return e.Kind }

// errorf is never inlined: each inlined copy adds some hundred bytes to the
// WebAssembly module.
//
//go:noinline
func errorf(kind error, msg string) error { return &Error{kind, msg} }
