// SPDX-License-Identifier: Apache-2.0
#include "rubick/frontend/Ast.h"

namespace rubick::tc {

std::optional<ScalarType> parseScalarType(std::string_view name) {
  if (name == "int8") return ScalarType::Int8;
  if (name == "int16") return ScalarType::Int16;
  if (name == "int32") return ScalarType::Int32;
  if (name == "int64") return ScalarType::Int64;
  if (name == "half" || name == "float16") return ScalarType::Float16;
  if (name == "float" || name == "float32") return ScalarType::Float32;
  if (name == "double" || name == "float64") return ScalarType::Float64;
  return std::nullopt;
}

const char* toString(ScalarType t) {
  switch (t) {
  case ScalarType::Int8:
    return "int8";
  case ScalarType::Int16:
    return "int16";
  case ScalarType::Int32:
    return "int32";
  case ScalarType::Int64:
    return "int64";
  case ScalarType::Float16:
    return "float16";
  case ScalarType::Float32:
    return "float32";
  case ScalarType::Float64:
    return "float64";
  }
  return "?";
}

bool isInteger(ScalarType t) {
  return t == ScalarType::Int8 || t == ScalarType::Int16 || t == ScalarType::Int32 ||
         t == ScalarType::Int64;
}

int bitWidth(ScalarType t) {
  switch (t) {
  case ScalarType::Int8:
    return 8;
  case ScalarType::Int16:
  case ScalarType::Float16:
    return 16;
  case ScalarType::Int32:
  case ScalarType::Float32:
    return 32;
  case ScalarType::Int64:
  case ScalarType::Float64:
    return 64;
  }
  return 0;
}

const char* toString(AssignOp op) {
  switch (op) {
  case AssignOp::Assign:
    return "=";
  case AssignOp::PlusEq:
    return "+=";
  case AssignOp::PlusEqBang:
    return "+=!";
  case AssignOp::StarEq:
    return "*=";
  case AssignOp::StarEqBang:
    return "*=!";
  case AssignOp::MaxEq:
    return "max=";
  case AssignOp::MaxEqBang:
    return "max=!";
  case AssignOp::MinEq:
    return "min=";
  case AssignOp::MinEqBang:
    return "min=!";
  }
  return "?";
}

bool isReduction(AssignOp op) {
  return op != AssignOp::Assign;
}

bool initialisesWithIdentity(AssignOp op) {
  return op == AssignOp::PlusEqBang || op == AssignOp::StarEqBang || op == AssignOp::MaxEqBang ||
         op == AssignOp::MinEqBang;
}

} // namespace rubick::tc
