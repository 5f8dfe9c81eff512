package rules

import "testing"

func TestFormatBracketed(t *testing.T) {
	cases := []struct {
		width int
		want  string
	}{
		{80, "    return await run_sync(helper, a, b, abandon_on_cancel=True)"},
		{50, "    return await run_sync(\n        helper, a, b, abandon_on_cancel=True\n    )"},
		{30, "    return await run_sync(\n        helper,\n        a,\n        b,\n        abandon_on_cancel=True,\n    )"},
	}
	for _, c := range cases {
		got := formatBracketed("    ", "return await run_sync(", []string{"helper", "a", "b", "abandon_on_cancel=True"}, ")", c.width, "\n")
		if got != c.want {
			t.Errorf("width %d:\n%s\nwant\n%s", c.width, got, c.want)
		}
	}
}
