package engine

// Parse reads template notation (SPEC §2.2, §3.8, §4) into its CONTRACT form.
func Parse(text string) (Template, error) {
	return Template{}, newError(CodeBadRequest, "parse: not implemented yet")
}

// Evaluate answers an evaluate request (CONTRACT evaluate). Errors are *Error.
func Evaluate(req *Request) (*Result, error) {
	return nil, newError(CodeBadRequest, "evaluate: not implemented yet")
}

// Move answers a forced-movement request (CONTRACT move, SPEC §3.7). Errors are *Error.
func Move(req *MoveRequest) (*MoveResult, error) {
	return nil, newError(CodeBadRequest, "move: not implemented yet")
}
