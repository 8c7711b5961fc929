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
	hard_acts conv1d_net token_mlp token_mlp_17 resnet18 resnet50 googlenet resnext50_32x4d squeezenet1_1 \
	densenet121 mobilenet_v2 mobilenet_v3_small mobilenet_v3_large \
	mnasnet1_0 regnet_y_400mf efficientnet_b0 shufflenet_v2_x1_0 alexnet \
	vgg16
