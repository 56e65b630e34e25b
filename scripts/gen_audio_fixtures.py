#!/usr/bin/python3
"""Writes the WAV fixtures of src/data/text_audio_test.cpp in tests/fixtures/data/wav/ with Python's
wave module (integer PCM) and struct (IEEE float, which wave cannot write). Sample i of each file is
given by the formula next to it; the test recomputes it.

Run: /usr/bin/python3 scripts/gen_audio_fixtures.py [out_dir]
"""
import os
import struct
import sys
import wave

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures",
                                                          "data", "wav")
os.makedirs(OUT, exist_ok=True)


def write_pcm(name, width, channels, rate, values):
    with wave.open(os.path.join(OUT, name), "wb") as w:
        w.setnchannels(channels)
        w.setsampwidth(width)
        w.setframerate(rate)
        signed = width > 1
        w.writeframes(b"".join(v.to_bytes(width, "little", signed=signed) for v in values))


n = 24
write_pcm("s16_mono.wav", 2, 1, 16000, [(i * 7919) % 65536 - 32768 for i in range(n)])  # int16
write_pcm("u8_stereo.wav", 1, 2, 8000, [(i * 37) % 256 for i in range(n)])              # uint8, interleaved
write_pcm("s24_mono.wav", 3, 1, 44100, [(i * 1234567) % (1 << 24) - (1 << 23) for i in range(n)])

# IEEE float (format 3), mono, 22050 Hz: sample i = (i - 12) / 16, with a "LIST" chunk before "data"
# that a reader must skip.
samples = [(i - 12) / 16 for i in range(n)]
data = struct.pack("<%df" % n, *samples)
fmt = struct.pack("<HHIIHH", 3, 1, 22050, 22050 * 4, 4, 32)
extra = b"LIST" + struct.pack("<I", 5) + b"INFOx" + b"\0"  # an odd-sized chunk and its pad byte
body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt + extra + b"data" + struct.pack("<I", len(data)) + data
with open(os.path.join(OUT, "f32_mono.wav"), "wb") as f:
    f.write(b"RIFF" + struct.pack("<I", len(body)) + body)
