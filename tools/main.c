/* The blockfilter executable: everything else is in libblockfilter_cli. */
#include "blockfilter_cli.h"

int main(int argc, char **argv) { return bf_cli_main(argc, argv); }
