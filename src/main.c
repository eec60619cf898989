/* main.c: turnpostd, the turn server daemon */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
int main(void) { puts("turnpostd"); return 0; }
