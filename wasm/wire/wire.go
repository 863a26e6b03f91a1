package wire

import (
	"errors"

	"github.com/aoekit/aoekit/core/engine"
)

// The engine's entry points, replaced in tests to check that panics are recovered.
var (
	engineParse    = engine.Parse
	engineEvaluate = engine.Evaluate
	engineMove     = engine.Move
)

// Every exported function turns a panic into an internal error: nothing panics out of wire.

// internalPrefix starts the message of every internal error; see Internal.
const internalPrefix = "internal error: "

// Internal reports whether err is an internal error (a bug, reported as HTTP 500) rather than
// a fault in the request.
func Internal(err *engine.Error) bool {
	return err != nil && len(err.Message) >= len(internalPrefix) && err.Message[:len(internalPrefix)] == internalPrefix
}

func internal(msg string) *engine.Error {
	return &engine.Error{Code: engine.CodeBadRequest, Message: internalPrefix + msg}
}

// recovered turns a recovered panic value into an internal error.
func recovered(r any) *engine.Error {
	switch v := r.(type) {
	case error:
		return internal(v.Error())
	case string:
		return internal(v)
	}
	return internal("panic")
}

// guard recovers a panic into *err, clearing *out.
func guard(out *[]byte, err **engine.Error) {
	if r := recover(); r != nil {
		*out = nil
		*err = recovered(r)
	}
}

// asError turns an engine error into an *engine.Error (bad_request when it is not one).
func asError(err error) *engine.Error {
	var e *engine.Error
	if errors.As(err, &e) && e != nil {
		return e
	}
	return &engine.Error{Code: engine.CodeBadRequest, Message: err.Error()}
}

// Status is the HTTP status of an answer: 200 without an error, 422 for a rule violation
// (engine.Error.Rule), 500 for an internal error and 400 for any other error.
func Status(err *engine.Error) int {
	switch {
	case err == nil:
		return 200
	case Internal(err):
		return 500
	case err.Rule():
		return 422
	}
	return 400
}

// DecodeRequest reads an evaluate request (CONTRACT evaluate). Unknown fields are ignored and
// null fields are absent ones; malformed JSON is an error naming the byte offset, a value of the
// wrong type one naming its path ("tokens[3].x: expected an integer, got a string").
func DecodeRequest(body []byte) (req *engine.Request, err *engine.Error) {
	defer func() {
		if r := recover(); r != nil {
			req, err = nil, recovered(r)
		}
	}()
	d, err := newDecoder(body)
	if err != nil {
		return nil, err
	}
	req = new(engine.Request)
	if err := d.request(req); err != nil {
		return nil, err
	}
	return req, nil
}

// DecodeMove reads a forced-movement request (CONTRACT move), as DecodeRequest does.
func DecodeMove(body []byte) (req *engine.MoveRequest, err *engine.Error) {
	defer func() {
		if r := recover(); r != nil {
			req, err = nil, recovered(r)
		}
	}()
	d, err := newDecoder(body)
	if err != nil {
		return nil, err
	}
	req = new(engine.MoveRequest)
	if err := d.move(req); err != nil {
		return nil, err
	}
	return req, nil
}

// DecodeParse reads a parse body, {"text": "…"}, and returns the text.
func DecodeParse(body []byte) (text string, err *engine.Error) {
	defer func() {
		if r := recover(); r != nil {
			text, err = "", recovered(r)
		}
	}()
	d, err := newDecoder(body)
	if err != nil {
		return "", err
	}
	return d.parseBody()
}

// EncodeResult returns the JSON of r, as encoding/json gives it; nil when r is nil or holds a
// number JSON cannot carry (NaN, ±Inf), which encoding/json refuses too.
func EncodeResult(r *engine.Result) (out []byte) {
	defer guard(&out, new(*engine.Error))
	if r == nil {
		return nil
	}
	e := newEncoder(256 + 16*len(r.Cells) + 256*len(r.Targets))
	e.result(r)
	if !e.ok {
		return nil
	}
	return e.b
}

// EncodeTemplate returns the JSON of t, as encoding/json gives it.
func EncodeTemplate(t *engine.Template) (out []byte) {
	defer guard(&out, new(*engine.Error))
	if t == nil {
		return []byte("null")
	}
	e := newEncoder(128)
	e.template(t)
	return e.b
}

// EncodeMoveResult returns the JSON of m, as encoding/json gives it.
func EncodeMoveResult(m *engine.MoveResult) (out []byte) {
	defer guard(&out, new(*engine.Error))
	if m == nil {
		return []byte("null")
	}
	e := newEncoder(64 + 16*len(m.Path))
	e.moveResult(m)
	return e.b
}

// Parse answers a parse body, {"text": "…"}, with the template's JSON.
func Parse(body []byte) (out []byte, err *engine.Error) {
	defer guard(&out, &err)
	text, err := DecodeParse(body)
	if err != nil {
		return nil, err
	}
	t, perr := engineParse(text)
	if perr != nil {
		return nil, asError(perr)
	}
	return EncodeTemplate(&t), nil
}

// Evaluate answers an evaluate request with the result's JSON.
func Evaluate(body []byte) (out []byte, err *engine.Error) {
	defer guard(&out, &err)
	req, err := DecodeRequest(body)
	if err != nil {
		return nil, err
	}
	res, eerr := engineEvaluate(req)
	if eerr != nil {
		return nil, asError(eerr)
	}
	if res == nil {
		return nil, internal("evaluate returned no result")
	}
	out = EncodeResult(res)
	if out == nil {
		return nil, internal("the result holds a number JSON cannot carry (NaN or infinity)")
	}
	return out, nil
}

// Move answers a forced-movement request with the result's JSON.
func Move(body []byte) (out []byte, err *engine.Error) {
	defer guard(&out, &err)
	req, err := DecodeMove(body)
	if err != nil {
		return nil, err
	}
	res, merr := engineMove(req)
	if merr != nil {
		return nil, asError(merr)
	}
	if res == nil {
		return nil, internal("move returned no result")
	}
	return EncodeMoveResult(res), nil
}

// Version returns the JSON of engine.About().
func Version() (out []byte) {
	defer func() {
		if r := recover(); r != nil {
			out = Error(recovered(r))
		}
	}()
	e := newEncoder(64)
	e.version(engine.About())
	return e.b
}

// Error returns {"error": {"code", "message", "at"?}} for err; a nil err is an internal error.
func Error(err *engine.Error) (out []byte) {
	defer func() {
		if r := recover(); r != nil {
			out = []byte(`{"error":{"code":"bad_request","message":"internal error: encoding an error"}}`)
		}
	}()
	if err == nil {
		err = internal("no error to report")
	}
	e := newEncoder(64 + len(err.Message))
	e.errorBody(err)
	return e.b
}
