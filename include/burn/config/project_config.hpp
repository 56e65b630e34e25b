#pragma once
/// burn.toml: a project's settings file (burn's BurnConfig). Each key stands for one of the BURN_*
/// environment variables: the table and key names, upper-cased and joined with '_', after "BURN_".
///
///     # burn.toml, in the directory the program runs from (or a parent of it)
///     default_device = "cpu"      # BURN_DEFAULT_DEVICE
///     num_threads = 4             # BURN_NUM_THREADS
///     detect_anomaly = true       # BURN_DETECT_ANOMALY=1 (false: 0)
///     [cpu]
///     cache = "/tmp/burn-cache"   # BURN_CPU_CACHE
///     dnnl = false                # BURN_CPU_DNNL=0
///
/// An environment variable that is set wins over the file. The file is found once per process:
/// $BURN_CONFIG when set, else the first burn.toml in the current directory or its parents. The syntax
/// is the part of TOML these settings need: comments, [table] and [a.b] headers, bare or dotted keys,
/// and strings ("basic" with escapes, 'literal'), integers, floats and booleans as values. Anything else
/// (arrays, inline tables, dates, multi-line strings) is an error naming the line.
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace burn::config {

class ProjectConfig {
  public:
    /// Parses burn.toml text; origin names it in errors. Throws burn::Error naming the line.
    static ProjectConfig parse(const std::string& text, const std::string& origin = "burn.toml");
    /// Reads and parses a file (burn::IoError when it cannot be read).
    static ProjectConfig load(const std::string& path);
    /// The file this process uses: $BURN_CONFIG, else burn.toml in the current directory or the nearest
    /// parent that has one; nullopt when there is none (or the build has no file system).
    static std::optional<std::string> find();
    /// The settings in effect: the file find() names, parsed on first use (nullptr when there is none).
    static std::shared_ptr<const ProjectConfig> current();
    /// Replaces the settings in effect (nullptr: none), e.g. to apply a file of the program's choosing.
    /// EnvSwitch-style settings already read keep their value.
    static void set_current(std::shared_ptr<const ProjectConfig> config);

    /// The value for an environment variable's name ("BURN_NUM_THREADS"), nullopt when the file has none.
    std::optional<std::string> get(const std::string& variable) const;
    /// Every setting, by environment variable name.
    const std::map<std::string, std::string>& variables() const { return vars_; }

  private:
    std::map<std::string, std::string> vars_;
};

}  // namespace burn::config
