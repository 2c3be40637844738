#!/usr/bin/env python3
"""A small ResNet for Fashion-MNIST, written with tessel's Python front end.

A 3 x 3 stem convolution to `ch1` channels, a residual block at 28 x 28
(two 3 x 3 convolutions, each followed by batch norm, the second added to
the block's input), a downsampling block (a stride-2 3 x 3 convolution to
14 x 14 and `ch2` channels, with a stride-2 1 x 1 projection on the
shortcut), a residual block at 14 x 14, global average pooling and a
linear classifier. Every convolution is followed by batch norm over
[batch, h, w]: in `forward` it normalises with the batch's statistics and
updates its running statistics (buffers the training step carries); in
`evaluate` it normalises with the running statistics.

    resnet.py --emit resnet.mlir                    # the committed resnet.mlir
    resnet.py --explain examples/resnet/spatial.yaml
    resnet.py --train examples/resnet/data.yaml --steps 400
"""
import argparse

import tessel
from tessel import Dim

DATA = "/usr/share/datasets/fashion-mnist"
OVER = ["batch", "h", "w"]


def conv_bn(name, x, out, in_, kernel_size, stride=1, relu=True):
    """conv -> batch norm (-> ReLU): the ResNet's unit."""
    y = tessel.Conv2d(f"{name}.conv", out, in_, ["h", "w"], kernel_size, stride=stride,
                      padding=kernel_size // 2)(x)
    y = tessel.BatchNorm(f"{name}.bn", out.name, OVER)(y)
    return tessel.relu(y) if relu else y


class ResidualBlock(tessel.Module):
    """relu(x + bn(conv(relu(bn(conv(x)))))); with `stride` 2 (or new
    channels) the shortcut is a strided 1 x 1 convolution and batch norm."""

    def __init__(self, name, channels, in_, mid, stride=1):
        super().__init__(name)
        self.channels, self.in_, self.mid, self.stride = channels, in_, mid, stride

    def forward(self, x):
        y = conv_bn("a", x, self.mid, self.in_, 3, self.stride)
        y = conv_bn("b", y, self.channels, self.mid.name, 3, relu=False)
        shortcut = x
        if self.stride != 1 or self.in_ != self.channels.name:
            shortcut = conv_bn("proj", x, self.channels, self.in_, 1, self.stride, relu=False)
        return tessel.relu(y + shortcut)


class ResNet(tessel.Module):
    """Images [batch, c, h, w] -> logits [batch, classes]."""

    def __init__(self, name, width, classes):
        super().__init__(name)
        self.width, self.classes = width, classes

    def forward(self, images):
        ch1, ch2 = Dim("ch1", self.width), Dim("ch2", 2 * self.width)
        x = conv_bn("stem", images, ch1, "c", 3)
        x = ResidualBlock("block1", ch1, "ch1", Dim("mid1", self.width))(x)
        x = ResidualBlock("block2", ch2, "ch1", Dim("mid2", 2 * self.width), stride=2)(x)
        x = ResidualBlock("block3", ch2, "ch2", Dim("mid3", 2 * self.width))(x)
        pooled = tessel.reduce_mean(x, ["h", "w"])  # global average pooling
        return tessel.Linear("head", [self.classes], ["ch2"])(pooled)


def build_resnet(batch=8, width=8):
    batch = Dim("batch", batch)
    images = tessel.Input("images", [batch, Dim("c", 1), Dim("h", 28), Dim("w", 28)])
    labels = tessel.Input("labels", [batch], "i32")
    classes = Dim("classes", 10)
    resnet = ResNet("resnet", width, classes)
    model = tessel.Model()
    tessel.define_classifier(model, resnet, images, labels, classes)
    return model


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--width", type=int, default=8)
    tessel.add_model_arguments(parser, steps=400, train_batch=32, data=DATA)
    args = parser.parse_args()

    model = build_resnet(8, args.width)
    tessel.run_model_commands(model, args, schedule="cosine")


if __name__ == "__main__":
    main()
