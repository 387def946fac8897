float A[8];
#pragma scop
for (int i = 0; i < 8; i++) { if (i < 4) A[i] += A[7 - i]; else A[i] = 0; }
#pragma endscop
