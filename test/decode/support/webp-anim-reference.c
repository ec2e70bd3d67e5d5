/* Dumps libwebp's WebPAnimDecoder frames (RGBA) for termsight's tests; declares the few ABI
   pieces it needs itself since the Debian runtime library ships without headers. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
typedef struct { const uint8_t* bytes; size_t size; } WebPData;
typedef struct { int color_mode; int use_threads; uint32_t padding[7]; } WebPAnimDecoderOptions;
typedef struct { uint32_t canvas_width, canvas_height, loop_count, bgcolor, frame_count; uint32_t pad[4]; } WebPAnimInfo;
typedef struct WebPAnimDecoder WebPAnimDecoder;
int WebPAnimDecoderOptionsInitInternal(WebPAnimDecoderOptions*, int);
WebPAnimDecoder* WebPAnimDecoderNewInternal(const WebPData*, const WebPAnimDecoderOptions*, int);
int WebPAnimDecoderGetInfo(const WebPAnimDecoder*, WebPAnimInfo*);
int WebPAnimDecoderHasMoreFrames(const WebPAnimDecoder*);
int WebPAnimDecoderGetNext(WebPAnimDecoder*, uint8_t**, int*);
void WebPAnimDecoderDelete(WebPAnimDecoder*);
#define ABI 0x0107
int main(int argc, char** argv) {
  FILE* f = fopen(argv[1], "rb"); if (!f) return 2;
  fseek(f, 0, SEEK_END); long n = ftell(f); fseek(f, 0, SEEK_SET);
  uint8_t* buf = malloc(n); if (fread(buf, 1, n, f) != (size_t)n) return 2; fclose(f);
  WebPData data = { buf, (size_t)n };
  WebPAnimDecoderOptions opt;
  if (!WebPAnimDecoderOptionsInitInternal(&opt, ABI)) return 3;
  opt.color_mode = 1; /* MODE_RGBA */
  opt.use_threads = 0;
  WebPAnimDecoder* dec = WebPAnimDecoderNewInternal(&data, &opt, ABI); if (!dec) return 4;
  WebPAnimInfo info; WebPAnimDecoderGetInfo(dec, &info);
  printf("%u %u %u %u\n", info.canvas_width, info.canvas_height, info.loop_count, info.frame_count);
  int prev = 0;
  while (WebPAnimDecoderHasMoreFrames(dec)) {
    uint8_t* px; int ts;
    if (!WebPAnimDecoderGetNext(dec, &px, &ts)) return 5;
    printf("%d\n", ts - prev); prev = ts;
    fwrite(px, 1, (size_t)info.canvas_width * info.canvas_height * 4, stdout);
  }
  WebPAnimDecoderDelete(dec);
  return 0;
}
