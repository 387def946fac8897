/* A tiled gemm (our own test input): tiles of T x T, the i-tile loop
 * outermost, inner loops bounded by the tile they walk. */
#define D 128
#define T 16

float A[D][D], B[D][D], C[D][D];

void gemm_tiled(float alpha, float beta)
{
#pragma scop
	for (int it = 0; it < D / T; it++)
		for (int jt = 0; jt < D / T; jt++) {
			for (int i = it * T; i < it * T + T; i++)
				for (int j = jt * T; j < jt * T + T; j++)
					C[i][j] *= beta;
			for (int kt = 0; kt < D / T; kt++)
				for (int i = it * T; i < it * T + T; i++)
					for (int k = kt * T; k < kt * T + T; k++)
						for (int j = jt * T; j < jt * T + T; j++)
							C[i][j] += alpha * A[i][k] * B[k][j];
		}
#pragma endscop
}
