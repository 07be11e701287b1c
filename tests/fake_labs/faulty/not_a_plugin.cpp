// A shared library that is not a cudalab plugin: it exports no factory.
extern "C" int cudalab_not_a_plugin_answer() { return 42; }
