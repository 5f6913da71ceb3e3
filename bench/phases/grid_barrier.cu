/* The floor under a phased megakernel on this GPU: a persistent grid that
 * does nothing but grid barriers (three ways of arriving and polling), the
 * same with the heat body of bench/phases (64 blocks of 256 cells, update
 * and copy phases alternating), against one launch per phase and a CUDA
 * graph of those launches. 2000 phases, best of 5, kernel time by events.
 * No result is checked: this measures what a barrier costs, nothing else.
 *   ph_grid_barrier        (prints one line per variant)
 * Results: bench/results/2026-11-21_H200_grid_barrier.txt; docs/phases.md
 * compares them with gtcc's megakernel. */
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#define CK(x) do{cudaError_t e=(x); if(e!=cudaSuccess){printf("err %s line %d\n",cudaGetErrorString(e),__LINE__);exit(1);}}while(0)
__device__ __forceinline__ unsigned ld_acq(const unsigned *p){unsigned v; asm volatile("ld.acquire.gpu.global.u32 %0,[%1];":"=r"(v):"l"(p):"memory"); return v;}
__device__ __forceinline__ void red_rel(unsigned *p,unsigned v){asm volatile("red.release.gpu.global.add.u32 [%0],%1;"::"l"(p),"r"(v):"memory");}
__device__ __forceinline__ unsigned ld_relaxed(const unsigned *p){unsigned v; asm volatile("ld.relaxed.gpu.global.u32 %0,[%1];":"=r"(v):"l"(p):"memory"); return v;}

template<int MODE> __device__ __forceinline__ void gbar(unsigned *cnt, unsigned target){
  __syncthreads();
  if(threadIdx.x==0){
    if(MODE==0){ __threadfence(); atomicAdd(cnt,1); while(ld_acq(cnt)<target); }
    else if(MODE==1){ red_rel(cnt,1); while(ld_acq(cnt)<target); }
    else if(MODE==2){ red_rel(cnt,1); while(ld_relaxed(cnt)<target); __threadfence(); }
  }
  __syncthreads();
}
__device__ __forceinline__ void heat_body(int phase,int b,int bs,const double*u,double*v,double*u2,double r){
  int i=(b+1)*bs+threadIdx.x;
  if((phase&1)==0) v[i]=u[i]+r*(u[i-1]-2.0*u[i]+u[i+1]);
  else u2[i]=v[i];
}
template<int MODE,int BODY> __global__ void mk(unsigned *cnt,int phases,int bs,double*u,double*v,double r){
  for(int p=0;p<phases;p++){
    if(BODY) for(int b=blockIdx.x;b<64;b+=gridDim.x) heat_body(p,b,bs,u,v,u,r);
    gbar<MODE>(cnt,(unsigned)(p+1)*gridDim.x);
  }
}
__global__ void upd(int bs,const double*u,double*v,double r){int i=(blockIdx.x+1)*bs+threadIdx.x; v[i]=u[i]+r*(u[i-1]-2.0*u[i]+u[i+1]);}
__global__ void cpy(int bs,double*u,const double*v){int i=(blockIdx.x+1)*bs+threadIdx.x; u[i]=v[i];}
int main(){
  int ndev = 0;
  if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) { printf("ph_grid_barrier: no CUDA device\n"); return 77; }
  int nb=64,bs=256,phases=2000; size_t N=(size_t)(nb+2)*bs;
  double *u,*v; unsigned *cnt; CK(cudaMalloc(&u,N*8)); CK(cudaMalloc(&v,N*8)); CK(cudaMalloc(&cnt,4));
  CK(cudaMemset(u,0,N*8)); CK(cudaMemset(v,0,N*8));
  cudaEvent_t a,b; cudaEventCreate(&a); cudaEventCreate(&b); float ms;
  auto runmk=[&](const char*name,void(*k)(unsigned*,int,int,double*,double*,double),int grid){
    float best=1e9; for(int rep=0;rep<5;rep++){ CK(cudaMemset(cnt,0,4)); cudaEventRecord(a); k<<<grid,256>>>(cnt,phases,bs,u,v,0.3); cudaEventRecord(b); CK(cudaEventSynchronize(b)); cudaEventElapsedTime(&ms,a,b); if(ms<best)best=ms;}
    printf("%-28s grid %4d: %.3f ms  %.3f us/phase\n",name,grid,best,best*1000/phases);
  };
  for(int g: {32,64,128,256,528}){
    runmk("barrier fence+atomic",mk<0,0>,g);
    runmk("barrier red.release",mk<1,0>,g);
    runmk("barrier red+relaxed poll",mk<2,0>,g);
  }
  runmk("heat fence+atomic",mk<0,1>,64);
  runmk("heat red.release",mk<1,1>,64);
  runmk("heat red+relaxed",mk<2,1>,64);
  // launch per phase
  float best=1e9; for(int rep=0;rep<5;rep++){ cudaEventRecord(a); for(int p=0;p<phases;p++){ if(p&1) cpy<<<nb,bs>>>(bs,u,v); else upd<<<nb,bs>>>(bs,u,v,0.3);} cudaEventRecord(b); CK(cudaEventSynchronize(b)); cudaEventElapsedTime(&ms,a,b); if(ms<best)best=ms;}
  printf("%-28s          : %.3f ms  %.3f us/phase\n","launch per phase",best,best*1000/phases);
  cudaStream_t s; cudaStreamCreate(&s); cudaGraph_t gr; cudaGraphExec_t ge;
  cudaStreamBeginCapture(s,cudaStreamCaptureModeGlobal); for(int p=0;p<phases;p++){ if(p&1) cpy<<<nb,bs,0,s>>>(bs,u,v); else upd<<<nb,bs,0,s>>>(bs,u,v,0.3);} cudaStreamEndCapture(s,&gr); CK(cudaGraphInstantiate(&ge,gr,0));
  best=1e9; for(int rep=0;rep<5;rep++){ cudaEventRecord(a,s); cudaGraphLaunch(ge,s); cudaEventRecord(b,s); CK(cudaEventSynchronize(b)); cudaEventElapsedTime(&ms,a,b); if(ms<best)best=ms;}
  printf("%-28s          : %.3f ms  %.3f us/phase\n","cuda graph",best,best*1000/phases);
}
