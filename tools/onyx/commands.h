// The onyx command-line tool: one function per subcommand, each returning the exit status
// (0 success, 1 the model is invalid, 2 unreadable input or bad usage).
#pragma once

#include <CLI/CLI.hpp>

namespace onyx::tool {

inline constexpr int kExitOk = 0;
inline constexpr int kExitInvalid = 1;
inline constexpr int kExitUnreadable = 2;

// The help of --constant-initializers, which infer, optimize and run take alike.
inline constexpr const char* kConstantInitializersHelp =
    "take initializers listed as graph inputs as the constants they hold (always so before IR 4), "
    "not as defaults a caller may override";

// The help of --int8-activations, which run and generate take alike.
inline constexpr const char* kInt8ActivationsHelp =
    "let products by int4 weights in blocks round their input to int8 per block, as "
    "onnxruntime's MatMulNBits at accuracy level 4: faster where the CPU has VNNI, not the "
    "model's exact function";

/// Registers a subcommand on `app`; when it runs, it stores its exit status in `exit_code`.
void addInfoCommand(CLI::App& app, int& exit_code);
void addCheckCommand(CLI::App& app, int& exit_code);
void addConvertCommand(CLI::App& app, int& exit_code);
void addPrintCommand(CLI::App& app, int& exit_code);
void addOpsCommand(CLI::App& app, int& exit_code);
void addInferCommand(CLI::App& app, int& exit_code);
void addTestCommand(CLI::App& app, int& exit_code);
void addRunCommand(CLI::App& app, int& exit_code);
void addGenerateCommand(CLI::App& app, int& exit_code);
void addOptimizeCommand(CLI::App& app, int& exit_code);
void addDrawCommand(CLI::App& app, int& exit_code);
void addExtractCommand(CLI::App& app, int& exit_code);
void addMergeCommand(CLI::App& app, int& exit_code);
void addSetDimsCommand(CLI::App& app, int& exit_code);
void addCompareCommand(CLI::App& app, int& exit_code);
void addReduceCommand(CLI::App& app, int& exit_code);

}  // namespace onyx::tool
