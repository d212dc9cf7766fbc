/* ftv's version: `ftv --version`, the man page's footer. */
#ifndef FTV_TOOLS_VERSION_H
#define FTV_TOOLS_VERSION_H

#define FTV_VERSION "0.1"

#endif
