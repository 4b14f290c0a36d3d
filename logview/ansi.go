package logview

import "strings"

// style is an SGR state: attribute bits in the low nibble and the
// foreground colour in the high one (0 for the default, 1–8 for black to
// white).
type style uint8

const (
	bold style = 1 << iota
	dim
	italic
	underline

	attributes style = 0x0f
)

var colourNames = [...]string{"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"}

var attributeClasses = [...]struct {
	bit  style
	name string
}{{bold, "ansi-bold"}, {dim, "ansi-dim"}, {italic, "ansi-italic"}, {underline, "ansi-underline"}}

// classes maps every style to its class attribute, so rendering allocates
// no class strings.
var classes = func() (t [len(colourNames)<<4 + 16]string) {
	for i := range t {
		s := style(i)
		var names []string
		if fg := s >> 4; fg > 0 {
			names = append(names, "ansi-"+colourNames[fg-1])
		}
		for _, a := range attributeClasses {
			if s&a.bit != 0 {
				names = append(names, a.name)
			}
		}
		t[i] = strings.Join(names, " ")
	}
	return t
}()

// class returns the CSS classes of s, such as "ansi-red ansi-bold".
func (s style) class() string {
	return classes[s]
}

// withForeground returns s with foreground colour fg (0 for the default).
func (s style) withForeground(fg int) style {
	return s&attributes | style(fg)<<4
}

// apply returns s changed by the parameters of an SGR sequence, such as
// "1;31". Backgrounds and other unsupported codes are ignored; extended
// colours (38;5;n and 38;2;r;g;b, likewise 48 and 58) are consumed whole so
// their numbers are not mistaken for codes.
func (s style) apply(params string) style {
	skip := 0            // numbers still owed to an extended colour
	colourModel := false // the previous number was 38, 48 or 58
	for {
		field, rest, more := strings.Cut(params, ";")
		switch {
		case skip > 0:
			skip--
		case colourModel:
			colourModel = false
			switch field {
			case "5":
				skip = 1
			case "2":
				skip = 3
			}
		default:
			s, colourModel = s.applyCode(sgrCode(field))
		}
		if !more {
			return s
		}
		params = rest
	}
}

// applyCode applies one SGR code and reports whether it announces an
// extended colour.
func (s style) applyCode(code int) (style, bool) {
	switch {
	case code == 0:
		return 0, false
	case code == 1:
		return s | bold, false
	case code == 2:
		return s | dim, false
	case code == 3:
		return s | italic, false
	case code == 4:
		return s | underline, false
	case code == 22:
		return s &^ (bold | dim), false
	case code == 23:
		return s &^ italic, false
	case code == 24:
		return s &^ underline, false
	case code >= 30 && code <= 37:
		return s.withForeground(code - 30 + 1), false
	case code >= 90 && code <= 97:
		return s.withForeground(code - 90 + 1), false
	case code == 39:
		return s.withForeground(0), false
	case code == 38 || code == 48 || code == 58:
		return s, true
	}
	return s, false
}

// sgrCode parses one SGR parameter. An empty one means 0; a malformed one,
// such as a colon sub-parameter list, yields -1, which no code matches.
// Huge numbers are capped, as no code is above 107.
func sgrCode(field string) int {
	n := 0
	for i := 0; i < len(field); i++ {
		c := field[i]
		if c < '0' || c > '9' {
			return -1
		}
		n = min(n*10+int(c-'0'), 1000)
	}
	return n
}

// escape measures the escape sequence at the start of s, where s[0] is ESC.
// It returns n == 0 when no well-formed sequence starts there, and the
// parameters when the sequence is an SGR (ESC [ … m).
//
// Recognised are CSI (ESC [ params intermediates final), string sequences
// (OSC, DCS, SOS, PM, APC: ESC ] P X ^ _ … ended by BEL or ESC \) and the
// short ESC intermediates final forms, such as ESC ( B.
func escape(s string) (n int, params string, sgr bool) {
	if len(s) < 2 {
		return 0, "", false
	}
	switch s[1] {
	case '[':
		j := 2
		for j < len(s) && s[j] >= 0x30 && s[j] <= 0x3f {
			j++
		}
		params := s[2:j]
		k := j
		for k < len(s) && s[k] >= 0x20 && s[k] <= 0x2f {
			k++
		}
		if k == len(s) || s[k] < 0x40 || s[k] > 0x7e {
			return 0, "", false
		}
		sgr := s[k] == 'm' && k == j && strings.Trim(params, "0123456789;:") == ""
		return k + 1, params, sgr
	case ']', 'P', 'X', '^', '_':
		for j := 2; j < len(s); j++ {
			switch s[j] {
			case 0x07:
				return j + 1, "", false
			case esc:
				if j+1 < len(s) && s[j+1] == '\\' {
					return j + 2, "", false
				}
				return 0, "", false
			}
		}
		return 0, "", false
	}
	j := 1
	for j < len(s) && s[j] >= 0x20 && s[j] <= 0x2f {
		j++
	}
	if j == len(s) || s[j] < 0x30 || s[j] > 0x7e {
		return 0, "", false
	}
	return j + 1, "", false
}
