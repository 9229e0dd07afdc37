// A file of the passes layer that writes the IR's private links: must not compile. The passes
// edit through GraphEditor and Patch (its operations hand outputs over, scope subgraphs, ...).
#include "ir/graph_builder.h"
