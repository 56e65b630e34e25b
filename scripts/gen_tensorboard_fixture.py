#!/usr/bin/python3
"""Writes tests/fixtures/train/scalars.tfevents: a TensorBoard event file made independently of burn, with
python3-protobuf (tensorflow.Event, Summary and Summary.Value declared here from their .proto field numbers)
and python3-crc32c (TFRecord's masked CRC-32C). src/train/tensorboard_test.cpp writes the same events with
burn::train::TensorBoardWriter and compares the bytes.

    apt-get install python3-protobuf python3-crc32c; /usr/bin/python3 scripts/gen_tensorboard_fixture.py
"""
import os
import struct

import crc32c
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

F = descriptor_pb2.FieldDescriptorProto


def proto():
    fd = descriptor_pb2.FileDescriptorProto(name="event_subset.proto", package="tensorflow", syntax="proto3")
    value = fd.message_type.add(name="SummaryValue")
    value.field.add(name="tag", number=1, type=F.TYPE_STRING, label=F.LABEL_OPTIONAL)
    value.oneof_decl.add(name="value")
    value.field.add(name="simple_value", number=2, type=F.TYPE_FLOAT, label=F.LABEL_OPTIONAL, oneof_index=0)
    summary = fd.message_type.add(name="Summary")
    summary.field.add(name="value", number=1, type=F.TYPE_MESSAGE, label=F.LABEL_REPEATED,
                      type_name=".tensorflow.SummaryValue")
    event = fd.message_type.add(name="Event")
    event.field.add(name="wall_time", number=1, type=F.TYPE_DOUBLE, label=F.LABEL_OPTIONAL)
    event.field.add(name="step", number=2, type=F.TYPE_INT64, label=F.LABEL_OPTIONAL)
    event.oneof_decl.add(name="what")
    event.field.add(name="file_version", number=3, type=F.TYPE_STRING, label=F.LABEL_OPTIONAL, oneof_index=0)
    event.field.add(name="summary", number=5, type=F.TYPE_MESSAGE, label=F.LABEL_OPTIONAL, oneof_index=0,
                    type_name=".tensorflow.Summary")
    pool = descriptor_pool.DescriptorPool()
    pool.Add(fd)
    get = getattr(message_factory, "GetMessageClass", None) or message_factory.MessageFactory(pool).GetPrototype
    return get(pool.FindMessageTypeByName("tensorflow.Event"))


def masked(crc):
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def framed(data):
    length = struct.pack("<Q", len(data))
    return length + struct.pack("<I", masked(crc32c.crc32c(length))) + data + \
        struct.pack("<I", masked(crc32c.crc32c(data)))


def main():
    Event = proto()
    out = framed(Event(wall_time=1700000000.5, file_version="brain.Event:2").SerializeToString())
    # (wall_time, step, tag, value): step 0, a negative value, a long tag, a large step, zero
    for wall, step, tag, value in [(1700000001.25, 0, "train/Loss", 2.5), (1700000002.0, 1, "train/Loss", -0.125),
                                   (1700000003.0, 7, "valid/Accuracy (%)", 97.25),
                                   (1700000004.0, 300000, "epoch/train/Loss", 0.0),
                                   (1700000005.0, 2, "x" * 200, 3.0e-8)]:
        e = Event(wall_time=wall, step=step)
        v = e.summary.value.add()
        v.tag = tag
        v.simple_value = value
        out += framed(e.SerializeToString())
    path = os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "train", "scalars.tfevents")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(out)
    print(f"{path}: {len(out)} bytes")


if __name__ == "__main__":
    main()
