// Needs libgatehousemissing.so, which no Lambda image has.
int gatehouse_fixture_value(void);

int main(void) { return gatehouse_fixture_value() == 42 ? 0 : 1; }
