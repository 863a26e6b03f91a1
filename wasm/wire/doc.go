// Package wire is aoekit's JSON codec, shared by every door (the browser module and the HTTP
// API), so that every door gives the same bytes. It decodes requests strictly (RFC 8259) into
// engine types by hand and encodes results byte for byte as encoding/json does with
// SetEscapeHTML(false), without importing encoding/json, fmt or reflect.
//
// Its code is shaped by the size of the browser module (make size): requests are read through
// field tables, small helpers are kept out of line, and numbers are read by its own exact
// readers rather than strconv's parsers.
package wire
