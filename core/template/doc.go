// Package template defines the area templates of every rule set — TDGS circles, cones, lines
// and rectangles (SPEC §2), Draw Steel auras, bursts, cubes, lines and walls (SPEC §3) and the
// 50 % circle (SPEC §4) — and the cells each covers once placed.
package template
