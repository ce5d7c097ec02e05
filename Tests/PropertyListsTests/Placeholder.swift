// Tests for PropertyLists.
