#!/bin/sh
# SPDX-License-Identifier: MIT
# torchvision's classifiers (and a 1-D convolution net and a token MLP
# block) as exported, compiled and run on the model
# against torch (tests/unit/compiler/zoo_check.py); the exports are cached in
# $1/zoo. Skipped without python3-torchvision. Run from the repository
# root with the build directory as $1.
set -u
build=${1:-build}
# shellcheck source=tests/unit/lib/tap.sh
. tests/unit/lib/tap.sh
# shellcheck source=tests/unit/lib/python.sh
. tests/unit/lib/python.sh

check_python "$build" numpy,torch,torchvision "torchvision zoo" \
	tests/unit/compiler/zoo_check.py "$build" \
	vgg16 alexnet convnext_tiny resnext50_32x4d resnet50 resnet18 densenet121 \
	efficientnet_b0 googlenet shufflenet_v2_x1_0 mobilenet_v2 mnasnet1_0 \
	regnet_y_400mf mobilenet_v3_large mobilenet_v3_small squeezenet1_1 \
	hard_acts conv1d_net token_mlp token_mlp_17
