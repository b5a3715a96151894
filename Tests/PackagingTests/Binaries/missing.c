// A library that exists only while the test builds against it.
int gatehouse_fixture_value(void) { return 42; }
