/* cli.c: turnpost, the admin command line */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
int main(void) { puts("turnpost"); return 0; }
