// SPDX-License-Identifier: Apache-2.0
#pragma once
// The one place that decides whether rubick may write, replace or delete something on disk.
// The rule: rubick never replaces or deletes what it did not write, unless the user passes
// --force (Overwrite::Force).
//
//  - Output directories (`emit -o`): written aside and renamed into place. An existing directory
//    is replaced only when it is empty, or holds rubick's manifest (.rubick-output, written with
//    every output directory) and nothing but the files listed there, unchanged (the manifest
//    keeps a hash of each). Anything else there, or a file where the directory should go, is
//    refused with an error naming the path.
//  - Work directories (`verify --work`, `--runtime-dir`): used when missing, empty, or marked
//    with .rubick-work (written when rubick starts using one); everything inside is rubick's.
//    One an earlier rubick filled without the mark (nothing in it but verify's own design and
//    runtime entries) is recognised and marked.
//  - Single files (`explore --json/--csv/--plot`, `dump -o`): written atomically (--csv streamed
//    to its temporary while the search runs). An existing file is replaced only when its start
//    carries the signature of the file rubick writes there; a format without a signature
//    (dump's text) never replaces an existing file.
//  - Never through a directory: a directory where a file is wanted is refused, --force or not.

#include <string>
#include <vector>

namespace rubick {

class StreamedFile;

enum class Overwrite {
  OwnOnly, // replace only what rubick recognisably wrote
  Force,   // --force: replace whatever is there
};

/// The manifest in every output directory: a first line saying what it is, then one line per
/// file, "<16 hex digits of FNV-1a> <relative path>".
inline constexpr const char* kManifestName = ".rubick-output";
/// The mark of a work directory.
inline constexpr const char* kWorkMarkName = ".rubick-work";

struct OutputEntry {
  std::string path; // relative to the directory, '/'-separated, no ".."
  std::string content;
};

/// Throws rubick::Error (naming `dir` and how to proceed) unless `dir` may be replaced by an
/// output directory: missing, empty, or rubick's own and unchanged; with Force, anything but
/// the current directory or an ancestor of it.
void checkOutputDirectory(const std::string& dir, Overwrite how);

/// Writes `files` and the manifest into a fresh directory that replaces `dir` only once
/// everything is written; on failure nothing is left behind and an existing `dir` is untouched.
/// Calls checkOutputDirectory first.
void writeOutputDirectory(const std::string& dir, const std::vector<OutputEntry>& files,
                          Overwrite how);

/// Throws rubick::Error naming `dir` unless it is an output directory rubick wrote, unchanged.
void checkOwnOutputDirectory(const std::string& dir);

/// Adds `files` to the output directory `dir` (or replaces the ones of the same path), which
/// must exist and be rubick's own and unchanged (checkOutputDirectory's rule); the manifest
/// then lists them too. Each file is written atomically, in place (the folder may be the
/// current directory), and the manifest last. Throws rubick::Error naming `dir` otherwise.
void addToOutputDirectory(const std::string& dir, const std::vector<OutputEntry>& files);

/// Makes `dir` (created when missing) a work directory rubick may fill and clean: throws unless
/// it is empty or already marked, or `how` is Force; marks it.
void claimWorkDirectory(const std::string& dir, Overwrite how);

/// Throws rubick::Error unless `path` may receive a file: missing, or a file whose first 4 KiB
/// contain `signature` (when non-empty), or any non-directory with Force.
void checkOutputFile(const std::string& path, const std::string& signature, Overwrite how);

/// checkOutputFile, then writes `content` to `path` atomically.
void writeOutputFile(const std::string& path, const std::string& content,
                     const std::string& signature, Overwrite how);

/// checkOutputFile (again: the target may have appeared since the first check), then
/// file.commit(): how a file streamed to disk (support/StreamedFile.h) takes its place.
void commitOutputFile(StreamedFile& file, const std::string& signature, Overwrite how);

/// The manifest text for `files` (exposed for tests).
std::string manifestText(const std::vector<OutputEntry>& files);

} // namespace rubick
