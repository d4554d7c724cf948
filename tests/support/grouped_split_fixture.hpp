// The grouped splits of the cross-runtime fixture (tests/test_splits.cpp grouped_fixture: 120
// examples, label (7i + 3) mod 5 < 2, group "m" + (i² + 3i) mod 23), as native code computes
// them. tests/js/grouped_splits.test.mjs reads these two strings from this file and checks that
// the wasm module gives the same: one character per example.
#pragma once

// grouped_holdout(labels, groups, 0.2, seed 7): '1' = held out.
constexpr const char* kGroupedHoldoutSeed7 =
    "001000100000001000100000010001000000010001000000100010000000"
    "100010000001000100000001000100000010001000000010001000000100";
// grouped_folds(labels, groups, k 3, seed 2): each example's fold.
constexpr const char* kGroupedFoldsSeed2 =
    "120001210121012100021221200012101210121000212212000121012101"
    "210002122120001210121012100021221200012101210121000212212000";
