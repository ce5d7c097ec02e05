// Tests for EndToEnd.
