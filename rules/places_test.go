package rules

import (
	"bytes"
	"encoding/gob"
	"reflect"
	"testing"
)

func TestPlacesGobRoundTrip(t *testing.T) {
	cases := []Places{
		nil,
		{},
		{{Start: 0, End: 12, AnchorStart: 0, AnchorEnd: 3, Line: 1}},
		// Later places before earlier ones (a rule's order is its own), an
		// anchor before its range's start, the extremes of int32.
		{{Start: 900, End: 950, AnchorStart: 910, AnchorEnd: 920, Line: 40}, {Start: 12, End: 24, AnchorStart: 5, AnchorEnd: 6, Line: 2},
			{Start: 1<<31 - 1, End: 1<<31 - 1, AnchorStart: -1 << 31, AnchorEnd: 1<<31 - 1, Line: 1<<31 - 1}},
	}
	for _, ps := range cases {
		var buf bytes.Buffer
		if err := gob.NewEncoder(&buf).Encode(Diagnostic{Code: "MCP001", More: ps}); err != nil {
			t.Fatal(err)
		}
		var got Diagnostic
		if err := gob.NewDecoder(&buf).Decode(&got); err != nil {
			t.Fatal(err)
		}
		if len(ps) == 0 {
			// Readers ask More != nil (the JSON writer's "more"): none
			// folded must read back as nil, as before the encoding.
			if got.More != nil {
				t.Errorf("round trip of %#v: got %#v, want nil", ps, got.More)
			}
			continue
		}
		if !reflect.DeepEqual(got.More, ps) {
			t.Errorf("round trip: got %v, want %v", got.More, ps)
		}
	}
}

func TestPlacesDecodeRefusesDamage(t *testing.T) {
	good, _ := Places{{Start: 10, End: 20, AnchorStart: 10, AnchorEnd: 12, Line: 3}, {Start: 30, End: 40, AnchorStart: 30, AnchorEnd: 32, Line: 4}}.GobEncode()
	for name, b := range map[string][]byte{
		"empty":          {},
		"cut short":      good[:len(good)-1],
		"trailing bytes": append(append([]byte(nil), good...), 0),
		"huge count":     {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 0, 0, 0, 0, 0},
	} {
		var ps Places
		if err := ps.GobDecode(b); err == nil {
			t.Errorf("%s: decoded %v, want an error", name, ps)
		}
	}
}
