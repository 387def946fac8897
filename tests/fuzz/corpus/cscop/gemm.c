/* The gemm of HayStack's README, written out for rdscope's tests: C is
 * scaled by beta, then C += alpha A B in the i-k-j order. */
int main(void)
{
#define D 1024
	float A[D][D], B[D][D];
	float C[D][D];
	float alpha = 1.5f, beta = 0.5f;

#pragma scop
	for (int i = 0; i < D; i++) {
		for (int j = 0; j < D; j++)
			C[i][j] *= beta;
		for (int k = 0; k < D; k++)
			for (int j = 0; j < D; j++)
				C[i][j] += alpha * A[i][k] * B[k][j];
	}
#pragma endscop
	return 0;
}
